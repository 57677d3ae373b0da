/**
 * @module Regression tests for the graph under overwrite churn: usearch 2.25.3's `remove` looped forever after
 * a few thousand remove/add cycles, freezing the process, and recall decayed. The churn runs in a child
 * process with a timeout, so a hang fails this test instead of hanging the suite.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const KIT = new URL('./engine-test-kit.ts', import.meta.url).href;
const ENGINE = new URL('./store-engine.ts', import.meta.url).href;

/** 12 rounds overwriting the same 2,000 points; prints the indexed count and recall@10 of the last round. */
const CHURN = `
import { makeDataDir, read, seededRandom } from ${JSON.stringify(KIT)};
import { openStoreEngine } from ${JSON.stringify(ENGINE)};
const DIM = 32, N = 2000;
const store = openStoreEngine({ dataDir: makeDataDir() });
store.createCollection('c', { vectors: { size: DIM, distance: 'Cosine', extras: {} }, settings: { hnsw_config: { full_scan_threshold: 10 } } });
const c = store.collection('c');
const random = seededRandom(2);
const vector = () => Array.from({ length: DIM }, () => random() - 0.5);
for (let round = 0; round < 12; round++) {
  c.upsert(Array.from({ length: N }, (_, i) => ({ id: i + 1, vector: vector(), payload: {} })));
  while (c.info().indexed_vectors_count < N) await new Promise((resolve) => setTimeout(resolve, 10));
}
let found = 0;
for (let q = 0; q < 20; q++) {
  const query = vector();
  const search = (params) => c.search({ ...read(), vector: query, limit: 10, offset: 0, params });
  const exact = new Set((await search({ exact: true })).map((hit) => hit.id));
  for (const hit of await search({})) if (exact.has(hit.id)) found++;
}
console.log(JSON.stringify({ indexed: c.info().indexed_vectors_count, recall: found / 200 }));
store.close();
`;

test('overwriting every point 12 times finishes indexing each round and keeps recall@10 >= 0.9', () => {
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', CHURN], {
    cwd: fileURLToPath(new URL('../../..', import.meta.url)),
    encoding: 'utf8',
    timeout: 90_000,
  });
  assert.equal(child.signal, null, `the churn hung and was killed (${child.signal}): ${child.stderr}`);
  assert.equal(child.status, 0, child.stderr);
  // The child's stdout also holds the TAP header of node:test (the test kit imports it): take the JSON line.
  const line = child.stdout.split('\n').find((text) => text.startsWith('{"indexed"')) ?? '';
  const result = JSON.parse(line) as { indexed: number; recall: number };
  assert.equal(result.indexed, 2000);
  assert.ok(result.recall >= 0.9, `recall@10 after churn ${result.recall}`);
});
