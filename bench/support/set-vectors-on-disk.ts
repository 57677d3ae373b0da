/**
 * @module Turns Qdrant's `on_disk` on or off for every dense vector of every collection in an embedded store's
 * data folder, as `PATCH /collections/{name}` would on a running store: for benchmarks that compare one kept
 * folder both ways (docs/growth.md). Run: node --import tsx bench/support/set-vectors-on-disk.ts STORE_DIR true|false
 */
import { openStoreEngine } from '../../src/qdrant-server/engine/index.js';

const [dataDir, setting] = process.argv.slice(2);
if (dataDir === undefined || (setting !== 'true' && setting !== 'false'))
  throw new Error('usage: set-vectors-on-disk.ts STORE_DIR true|false (STORE_DIR holds store.sqlite)');
const onDisk = setting === 'true';
const started = performance.now();
const store = openStoreEngine({ dataDir });
for (const name of store.listCollections()) {
  const collection = store.collection(name);
  const params = (collection.info() as { config: { params: { vectors?: Record<string, unknown> } } }).config
    .params.vectors;
  // The unnamed vector's params have a `size`; otherwise the map is of names.
  const names = params === undefined ? [] : 'size' in params ? [''] : Object.keys(params);
  if (names.length === 0) continue;
  const patched = performance.now();
  collection.updateConfig({
    vectors: Object.fromEntries(names.map((vector) => [vector, { on_disk: onDisk }])),
  });
  const ms = (performance.now() - patched).toFixed(0);
  console.log(`${name}: on_disk ${onDisk} for ${names.map((vector) => `"${vector}"`).join(', ')} (${ms} ms)`);
}
store.close();
console.log(`done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
