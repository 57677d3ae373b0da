/**
 * @module A store thread for tests that serves the real store and, on cue, blocks or crashes: a file named
 * `block` appearing in its data folder holds the thread (as a long search or a big upsert would) until a file
 * `release` appears, writing `blocked` meanwhile; a file named `crash` makes it throw.
 */
import { existsSync, mkdirSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import type { ModuleWorkerData } from '../../../runtime/start-module-worker.js';
import { serveStoreThread } from '../serve-store-thread.js';
import type { StoreThreadSettings } from '../store-thread-messages.js';

const settings = (workerData as ModuleWorkerData<StoreThreadSettings>).data;
// Watched before the store says it listens, so a cue written right after start is never missed.
mkdirSync(settings.dataDir, { recursive: true });
const pause = new Int32Array(new SharedArrayBuffer(4));
const watcher = watch(settings.dataDir, (_event, name) => {
  if (name === 'crash') throw new Error('the store thread crashed on cue');
  if (name !== 'block' || !existsSync(join(settings.dataDir, 'block'))) return;
  writeFileSync(join(settings.dataDir, 'blocked'), '');
  // Nothing on this thread runs until the release: no request is read, no timer fires.
  while (!existsSync(join(settings.dataDir, 'release'))) Atomics.wait(pause, 0, 0, 10);
});
// The watcher must not keep the thread alive after close().
watcher.unref();
await serveStoreThread(parentPort!, settings);
