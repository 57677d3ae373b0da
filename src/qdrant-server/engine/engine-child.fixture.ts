/** @module A child process for store-engine.test.ts: writes and then hangs until killed, or tries to open a locked store. */
import { openStoreEngine } from './store-engine.js';

const [mode, dataDir] = process.argv.slice(2) as [string, string];

if (mode === 'write-then-hang') {
  const store = openStoreEngine({ dataDir });
  store.createCollection('crash', { vectors: { size: 2, distance: 'Dot', extras: {} }, settings: {} });
  store.collection('crash').upsert([{ id: 1, vector: [1, 2], payload: { n: 1 } }]);
  store.collection('crash').upsert([{ id: 2, vector: [3, 4], payload: { n: 2 } }]);
  process.stdout.write('written\n');
  // Keep the store open (and its WAL unmerged) until the parent kills this process.
  setInterval(() => {}, 1000);
} else {
  try {
    openStoreEngine({ dataDir });
    process.stdout.write('opened\n');
  } catch (error) {
    process.stdout.write(`${(error as Error).message}\n`);
  }
}
