/** @module The embedded store thread's module (started by start-store-thread): serve the store with the settings sent. */
import { parentPort, workerData } from 'node:worker_threads';
import type { ModuleWorkerData } from '../../runtime/start-module-worker.js';
import { serveStoreThread } from './serve-store-thread.js';
import type { StoreThreadSettings } from './store-thread-messages.js';

if (parentPort === null) throw new Error('store-thread-entry runs as a worker thread (start-store-thread)');
await serveStoreThread(parentPort, (workerData as ModuleWorkerData<StoreThreadSettings>).data);
