/**
 * @module The embedded store on a thread of its own: the same server as startQdrantServer (same port, keys,
 * CORS, log lines, start errors), so parsing vectors, searching and persisting never hold up the event loop
 * of the thread that started it (the memory service's, answering /save and /retrieve).
 */
import type { Worker } from 'node:worker_threads';
import { moduleBeside, startModuleWorker } from '../../runtime/start-module-worker.js';
import type { QdrantServer, QdrantServerOptions } from '../http/server.js';
import {
  reviveError,
  reviveFields,
  type StoreThreadClose,
  type StoreThreadMessage,
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

/** A store served by its own thread. */
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
  return new Promise<StoreThread>((resolve, reject) => {
    worker.on('message', (message: StoreThreadMessage) => {
      switch (message.kind) {
        case 'log':
          logger?.[message.level](reviveFields(message.fields), message.message);
          return;
        case 'listening':
          state = 'serving';
          resolve(handleOf(worker, message, close));
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
      if (previous === 'starting') reject(why);
      else if (previous === 'serving') onCrash?.(why);
      else if (failure === undefined) closed?.resolve();
      else closed?.reject(failure);
    });
  });

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
    worker.postMessage({ kind: 'close' } satisfies StoreThreadClose);
    return closing;
  }
}

function handleOf(
  worker: Worker,
  listening: { readonly url: string; readonly port: number },
  close: () => Promise<void>,
): StoreThread {
  return { url: listening.url, port: listening.port, threadId: worker.threadId, close };
}
