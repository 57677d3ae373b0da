/**
 * @module A child process for graph-persistence.test.ts: opens a store whose graph was saved, changes points
 * (overwrites, deletes, adds) without the graph being saved again, and hangs until it is killed (kill -9).
 */
import { seededRandom } from '../../runtime/seeded-random.js';
import { openStoreEngine } from './store-engine.js';

const [dataDir, name, dim] = process.argv.slice(2) as [string, string, string];
const random = seededRandom(11);
const vector = () => Array.from({ length: Number(dim) }, () => random() * 2 - 1);

const store = openStoreEngine({ dataDir });
const collection = store.collection(name);
// Overwrite ids 1-300 with new vectors, delete 301-600, add 3001-3300.
collection.upsert(
  Array.from({ length: 300 }, (_, i) => ({ id: i + 1, vector: vector(), payload: { moved: true } })),
);
collection.deletePoints({ ids: Array.from({ length: 300 }, (_, i) => i + 301) });
collection.upsert(Array.from({ length: 300 }, (_, i) => ({ id: i + 3001, vector: vector(), payload: {} })));
process.stdout.write('changed\n');
// Keep the store open, its graph unsaved, until the parent kills this process.
setInterval(() => {}, 1000);
