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
  port.on('message', (request: StoreThreadRequest) => {
    if (request.kind === 'upsert') {
      const { id } = request;
      server.upsert(request.collection, request.batch).then(
        () => port.postMessage({ kind: 'upserted', id } satisfies StoreThreadMessage),
        (error: unknown) =>
          port.postMessage({
            kind: 'upsert-failed',
            id,
            error: recordError(error),
          } satisfies StoreThreadMessage),
      );
      return;
    }
    if (request.kind === 'held-terms') {
      const { id } = request;
      server.heldTerms(request.collection, request.request).then(
        (held) => port.postMessage({ kind: 'held-terms-found', id, held } satisfies StoreThreadMessage),
        (error: unknown) =>
          port.postMessage({
            kind: 'held-terms-failed',
            id,
            error: recordError(error),
          } satisfies StoreThreadMessage),
      );
      return;
    }
    if (request.kind === 'dense-cosines') {
      const { id } = request;
      server.denseCosines(request.collection, request.request).then(
        (cosines) => port.postMessage({ kind: 'dense-cosines-found', id, cosines } satisfies StoreThreadMessage),
        (error: unknown) =>
          port.postMessage({
            kind: 'dense-cosines-failed',
            id,
            error: recordError(error),
          } satisfies StoreThreadMessage),
      );
      return;
    }
    if (request.kind === 'read') {
      const { id } = request;
      server.read(request.collection, request.request).then(
        (result) => port.postMessage({ kind: 'read-done', id, result } satisfies StoreThreadMessage),
        (error: unknown) =>
          port.postMessage({ kind: 'read-failed', id, error: recordError(error) } satisfies StoreThreadMessage),
      );
      return;
    }
    if (request.kind !== 'close') return;
    server.close().then(
      () => port.postMessage({ kind: 'closed' } satisfies StoreThreadMessage),
      (error: unknown) =>
        port.postMessage({ kind: 'close-failed', error: recordError(error) } satisfies StoreThreadMessage),
    );
  });
  port.postMessage({ kind: 'listening', url: server.url, port: server.port } satisfies StoreThreadMessage);
  return server;
}
