/**
 * @module The store thread's side: start the embedded store's HTTP server on this thread, say where it
 * listens (or why it could not), post its log lines, and close it when asked.
 */
import type { MessagePort } from 'node:worker_threads';
import { type QdrantServer, startQdrantServer } from '../http/server.js';
import type { LogMethod, StoreLogger } from '../store-logger.js';
import {
  recordError,
  recordFields,
  type StoreThreadMessage,
  type StoreThreadRequest,
  type StoreThreadSettings,
} from './store-thread-messages.js';

/** A StoreLogger whose lines go to the starting thread, which writes them with the service's own logger. */
function postingLogger(port: MessagePort): StoreLogger {
  const post =
    (level: 'error' | 'warn' | 'info'): LogMethod =>
    (fields, message) =>
      port.postMessage({
        kind: 'log',
        level,
        fields: recordFields(fields),
        message,
      } satisfies StoreThreadMessage);
  return { error: post('error'), warn: post('warn'), info: post('info') };
}

/** Resolves after the loop has polled for I/O once (HTTP requests waiting get their turn first). */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Starts the store with `settings` and serves it until the starting thread sends `close`. Resolves with the
 * server once it listens (undefined when it could not start: the starting thread then ends this thread).
 */
export async function serveStoreThread(
  port: MessagePort,
  settings: StoreThreadSettings,
): Promise<QdrantServer | undefined> {
  let server: QdrantServer;
  try {
    server = await startQdrantServer({ ...settings, logger: postingLogger(port) });
  } catch (error) {
    port.postMessage({ kind: 'start-failed', error: recordError(error) } satisfies StoreThreadMessage);
    return undefined;
  }
  // Upserts are applied in the order posted, one per turn of this thread's loop: a writer posts a batch's
  // slices at once (send-upserts.ts), and a search arriving over HTTP meanwhile waits for one slice, not all.
  let upserts = Promise.resolve();
  // Upserts posted and not begun: a cancel (the writer gave up waiting) drops one of these, so nothing of a call
  // whose caller was told "failed" is applied after it (a forget's delete could run in between).
  const queued = new Set<number>();
  // Requests answered by their id: what was found, or why it failed.
  const answer = <T>(
    work: Promise<T>,
    found: (value: T) => StoreThreadMessage,
    failed: (error: ReturnType<typeof recordError>) => StoreThreadMessage,
  ) =>
    work.then(
      (value) => port.postMessage(found(value)),
      (error: unknown) => port.postMessage(failed(recordError(error))),
    );
  port.on('message', (request: StoreThreadRequest) => {
    if (request.kind === 'cancel-upsert') {
      if (queued.delete(request.id)) {
        port.postMessage({ kind: 'upsert-cancelled', id: request.id } satisfies StoreThreadMessage);
      }
      return;
    }
    if (request.kind === 'upsert') {
      const { id, collection, batch } = request;
      queued.add(id);
      const apply = async () => {
        if (!queued.delete(id)) return;
        await server.upsert(collection, batch).then(
          () => port.postMessage({ kind: 'upserted', id } satisfies StoreThreadMessage),
          (error: unknown) =>
            port.postMessage({
              kind: 'upsert-failed',
              id,
              error: recordError(error),
            } satisfies StoreThreadMessage),
        );
      };
      // The queue never breaks: a port that cannot post any more is closing, and the next upsert still runs.
      upserts = upserts
        .then(nextTurn)
        .then(apply)
        .catch(() => undefined);
      return;
    }
    if (request.kind === 'held-terms') {
      const { id } = request;
      answer(
        server.heldTerms(request.collection, request.request),
        (held) => ({ kind: 'held-terms-found', id, held }),
        (error) => ({ kind: 'held-terms-failed', id, error }),
      );
      return;
    }
    if (request.kind === 'dense-cosines') {
      const { id } = request;
      answer(
        server.denseCosines(request.collection, request.request),
        (cosines) => ({ kind: 'dense-cosines-found', id, cosines }),
        (error) => ({ kind: 'dense-cosines-failed', id, error }),
      );
      return;
    }
    if (request.kind === 'read') {
      const { id } = request;
      answer(
        server.read(request.collection, request.request),
        (result) => ({ kind: 'read-done', id, result }),
        (error) => ({ kind: 'read-failed', id, error }),
      );
      return;
    }
    if (request.kind !== 'close') return;
    // After the upserts posted before it, as when each was applied on arrival.
    upserts.then(() => server.close()).then(
      () => port.postMessage({ kind: 'closed' } satisfies StoreThreadMessage),
      (error: unknown) =>
        port.postMessage({ kind: 'close-failed', error: recordError(error) } satisfies StoreThreadMessage),
    );
  });
  port.postMessage({ kind: 'listening', url: server.url, port: server.port } satisfies StoreThreadMessage);
  return server;
}
