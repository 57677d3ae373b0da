/**
 * @module The embedded store on a thread of its own: the same server as startQdrantServer (same port, keys,
 * CORS, log lines, start errors), so parsing vectors, searching and persisting never hold up the event loop
 * of the thread that started it (the memory service's, answering /save and /retrieve).
 */
import type { Worker } from 'node:worker_threads';
import { moduleBeside, startModuleWorker } from '../../runtime/start-module-worker.js';
import type { DenseCosinesRequest } from '../http/posted-dense-cosines.js';
import type { HeldTermsRequest } from '../http/posted-held-terms.js';
import type { PointReadRequest } from '../http/posted-reads.js';
import type { UpsertBatch } from '../http/posted-upsert.js';
import type { QdrantServer, QdrantServerOptions } from '../http/server.js';
import {
  reviveError,
  reviveFields,
  type StoreThreadMessage,
  type StoreThreadRequest,
  type StoreThreadSettings,
} from './store-thread-messages.js';

export interface StoreThreadOptions extends QdrantServerOptions {
  /**
   * Called once when the thread dies while serving (an uncaught error, out of memory, a native abort), with
   * why; close() then resolves at once. Not called for start failures (start rejects) or after close().
   */
  readonly onCrash?: (error: Error) => void;
  /** The module the thread runs (default store-thread-entry); tests pass one that blocks or crashes on cue. */
  readonly entry?: URL;
}

/**
 * A store served by its own thread. Its `upsert` posts the batch to the thread, transferring the vectors'
 * buffers (the caller's Float32Arrays are detached: pack them into buffers of their own first); it rejects at
 * once after close() and, without a status, when the thread dies before answering. Upserts wait in the
 * thread's queue (one applied per turn of its loop); one whose `signal` aborts while it waits is dropped there.
 */
export interface StoreThread extends QdrantServer {
  /** The worker thread's id (the main thread's is 0). */
  readonly threadId: number;
}

/**
 * Starts the thread and resolves once its server listens; rejects with the error startQdrantServer threw
 * there (same message and `code`, e.g. EADDRINUSE), or why the thread died before it listened.
 */
export function startStoreThread(options: StoreThreadOptions): Promise<StoreThread> {
  const { logger, onCrash, entry, ...server } = options;
  const settings: StoreThreadSettings = server;
  const module = entry ?? moduleBeside(import.meta.url, 'store-thread-entry');
  const worker = startModuleWorker(module, settings);
  let state: 'starting' | 'serving' | 'closing' | 'ended' = 'starting';
  let failure: Error | undefined;
  let closed: { resolve: () => void; reject: (error: Error) => void } | undefined;
  let closing: Promise<void> | undefined;
  /** Posted requests (upserts, held-terms and dense-cosines reads) not answered yet, by message id. */
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  const settle = (id: number, error?: Error, value?: unknown) => {
    const waiting = pending.get(id);
    pending.delete(id);
    if (error === undefined) waiting?.resolve(value);
    else waiting?.reject(error);
  };
  return new Promise<StoreThread>((resolve, reject) => {
    worker.on('message', (message: StoreThreadMessage) => {
      switch (message.kind) {
        case 'log':
          logger?.[message.level](reviveFields(message.fields), message.message);
          return;
        case 'listening':
          state = 'serving';
          resolve(handleOf(worker, message, { upsert, heldTerms, denseCosines, read }, close));
          return;
        case 'upserted':
          settle(message.id);
          return;
        case 'upsert-cancelled':
          settle(message.id, abortError());
          return;
        case 'upsert-failed':
        case 'held-terms-failed':
        case 'dense-cosines-failed':
        case 'read-failed':
          settle(message.id, reviveError(message.error));
          return;
        case 'held-terms-found':
          settle(message.id, undefined, message.held);
          return;
        case 'dense-cosines-found':
          settle(message.id, undefined, message.cosines);
          return;
        case 'read-done':
          settle(message.id, undefined, message.result);
          return;
        case 'start-failed':
          failure = reviveError(message.error);
          void worker.terminate();
          return;
        case 'closed':
          void worker.terminate();
          return;
        case 'close-failed':
          failure = reviveError(message.error);
          void worker.terminate();
          return;
      }
    });
    // An uncaught error on the thread: it exits next, and `exit` says what it meant.
    worker.on('error', (error) => {
      failure ??= error;
    });
    worker.on('exit', (code) => {
      const previous = state;
      state = 'ended';
      const why = failure ?? new Error(`the embedded store's thread exited with code ${code}`);
      for (const id of [...pending.keys()]) settle(id, why);
      if (previous === 'starting') reject(why);
      else if (previous === 'serving') onCrash?.(why);
      else if (failure === undefined) closed?.resolve();
      else closed?.reject(failure);
    });
  });

  function upsert(collection: string, batch: UpsertBatch, signal?: AbortSignal): Promise<void> {
    if (state !== 'serving') return Promise.reject(new Error("the embedded store's thread is not serving"));
    if (signal?.aborted === true) return Promise.reject(abortError());
    const id = nextId++;
    return new Promise<void>((resolve, reject) => {
      // Throws (rejecting this promise) for a batch that cannot be posted, e.g. a buffer already transferred.
      worker.postMessage(
        { kind: 'upsert', id, collection, batch } satisfies StoreThreadRequest,
        transferablesOf(batch),
      );
      pending.set(id, { resolve: () => resolve(), reject });
      // The thread answers the cancel (`upsert-cancelled`) or, when it had begun, the upsert's own outcome.
      signal?.addEventListener(
        'abort',
        () => {
          if (pending.has(id) && state !== 'ended') {
            worker.postMessage({ kind: 'cancel-upsert', id } satisfies StoreThreadRequest);
          }
        },
        { once: true },
      );
    });
  }

  /**
   * Posts a request the thread answers by its id (found or failed), as every posted call but the upsert is; the
   * answer's payload is the type the matching message carries.
   */
  function ask<T>(
    request: DistributiveOmit<Extract<StoreThreadRequest, { id: number }>, 'id'>,
  ): Promise<T> {
    if (state !== 'serving') return Promise.reject(new Error("the embedded store's thread is not serving"));
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      worker.postMessage({ ...request, id } as StoreThreadRequest);
      pending.set(id, { resolve: (value) => resolve(value as T), reject });
    });
  }

  function heldTerms(collection: string, request: HeldTermsRequest): Promise<number[]> {
    return ask({ kind: 'held-terms', collection, request });
  }

  function denseCosines(collection: string, request: DenseCosinesRequest): Promise<[string, number][]> {
    return ask({ kind: 'dense-cosines', collection, request });
  }

  function read(collection: string, request: PointReadRequest): Promise<unknown> {
    return ask({ kind: 'read', collection, request });
  }

  function close(): Promise<void> {
    if (closing !== undefined) return closing;
    if (state !== 'serving') {
      closing = Promise.resolve();
      return closing;
    }
    state = 'closing';
    closing = new Promise<void>((resolve, reject) => {
      closed = { resolve, reject };
    });
    worker.postMessage({ kind: 'close' } satisfies StoreThreadRequest);
    return closing;
  }
}

function handleOf(
  worker: Worker,
  listening: { readonly url: string; readonly port: number },
  posted: Pick<StoreThread, 'upsert' | 'heldTerms' | 'denseCosines' | 'read'>,
  close: () => Promise<void>,
): StoreThread {
  return { url: listening.url, port: listening.port, threadId: worker.threadId, ...posted, close };
}

/** `Omit` over each member of a union, so the members' own fields stay checked. */
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** How a cancelled upsert rejects, as an aborted fetch does. */
function abortError(): Error {
  return new DOMException('the upsert was cancelled before the embedded store began it', 'AbortError');
}

/** The distinct buffers of a batch's dense vectors: moved to the thread, not copied. */
function transferablesOf(batch: UpsertBatch): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  const add = (vector: unknown) => {
    if (vector instanceof Float32Array && vector.buffer instanceof ArrayBuffer) buffers.add(vector.buffer);
  };
  for (const vector of batch.vectors) {
    if (vector instanceof Float32Array) add(vector);
    else for (const named of Object.values(vector)) add(named);
  }
  return [...buffers];
}
