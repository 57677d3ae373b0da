/** @module Tests that vectors kept on disk (Qdrant's `on_disk: true`) answer exactly as in RAM, and that the f32 block is gone. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { EmbeddedCollection } from './collection-engine.js';
import type { CollectionEngine, QueryInput, StoreEngine, VectorParams } from './engine-api.js';
import { makeDataDir, plainJson, read, seededRandom } from './engine-test-kit.js';
import { SqlitePersistence } from './sqlite-persistence.js';
import { openStoreEngine } from './store-engine.js';

const DIM = 16;

function randomVectors(count: number, seed: number): number[][] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => Array.from({ length: DIM }, () => random() * 2 - 1));
}

const f32Bytes = (collection: CollectionEngine, name = '') =>
  (collection as EmbeddedCollection).vectorMemory().get(name)?.values;

async function waitIndexed(collection: CollectionEngine, count: number): Promise<void> {
  while ((collection.info() as { indexed_vectors_count: number }).indexed_vectors_count < count)
    await new Promise((resolve) => setTimeout(resolve, 5));
}

/** Two collections of the same points, `ram` and `disk` (the second with `on_disk: true`); `graphed` gives both a graph. */
function twins(store: StoreEngine, count: number, graphed: boolean) {
  const settings = graphed ? { hnsw_config: { full_scan_threshold: 1 } } : {};
  const params = (extras: VectorParams['extras']): VectorParams => ({
    size: DIM,
    distance: 'Cosine',
    extras,
  });
  store.createCollection('ram', { vectors: params({}), settings });
  store.createCollection('disk', { vectors: params({ on_disk: true }), settings });
  const points = randomVectors(count, 5).map((vector, id) => ({
    id,
    vector,
    payload: { even: id % 2 === 0 },
  }));
  for (const name of ['ram', 'disk']) store.collection(name).upsert(points);
  return { ram: store.collection('ram'), disk: store.collection('disk') };
}

/** Every way a client reads vectors or scores, answered by both collections: ids, scores, vectors and order. */
async function answers(collection: CollectionEngine, queries: number[][]) {
  const out: unknown[] = [];
  const ask = (query: QueryInput, extra: object = {}) =>
    collection.query({ ...read(false, true), query, prefetch: [], limit: 10, offset: 0, ...extra });
  for (const vector of queries) {
    out.push(await collection.search({ ...read(), vector, limit: 10, offset: 0 }));
    out.push(await collection.search({ ...read(), vector, limit: 10, offset: 0, params: { exact: true } }));
    out.push(await ask({ kind: 'nearest', vector }, { filter: undefined }));
    out.push(await ask({ kind: 'nearest', vector, mmr: { diversity: 0.5, candidatesLimit: 40 } }));
  }
  out.push(await ask({ kind: 'point', id: 7 }));
  out.push(collection.retrieve([3, 1, 400], read(true, true)));
  out.push((await collection.scroll({ ...read(false, true), limit: 50 })).points);
  return plainJson(out);
}

describe('vectors on disk (on_disk: true)', () => {
  for (const graphed of [false, true]) {
    test(`${graphed ? 'graph' : 'exact'} searches, query by id, MMR, retrieve and scroll answer as in RAM`, async () => {
      const store = openStoreEngine({ dataDir: makeDataDir() });
      const { ram, disk } = twins(store, 2500, graphed);
      assert.equal(f32Bytes(disk), 0, 'no f32 block while on disk');
      assert.ok((f32Bytes(ram) as number) >= 2500 * DIM * 4);
      const queries = randomVectors(12, 77);
      // Both graphs whole (built alike, in the same order), so the approximate answers are comparable.
      if (graphed) await Promise.all([ram, disk].map((c) => waitIndexed(c, 2500)));
      assert.deepEqual(await answers(disk, queries), await answers(ram, queries));
      // Writes after: an overwrite, a delete and new points, seen at once (on a graph: scored as pending).
      for (const c of [ram, disk]) {
        c.upsert([
          { id: 7, vector: queries[0] as number[], payload: {} },
          { id: 9000, vector: queries[1] as number[], payload: {} },
        ]);
        c.deletePoints({ ids: [11] });
      }
      const top = await disk.search({ ...read(), vector: queries[1] as number[], limit: 1, offset: 0 });
      const exact = await ram.search({
        ...read(),
        vector: queries[1] as number[],
        limit: 1,
        offset: 0,
        params: { exact: true },
      });
      assert.deepEqual(plainJson(top), plainJson(exact));
      assert.equal(top[0]?.id, 9000);
      if (graphed) await Promise.all([ram, disk].map((c) => waitIndexed(c, 2500)));
      assert.deepEqual(await answers(disk, queries), await answers(ram, queries));
      store.close();
    });
  }

  test('PATCH turns it on and off on a live collection, and a restart keeps the setting', async () => {
    const dataDir = makeDataDir();
    let store = openStoreEngine({ dataDir });
    const { ram } = twins(store, 600, false);
    const queries = randomVectors(6, 13);
    const expected = await answers(ram, queries);
    ram.updateConfig({ vectors: { '': { on_disk: true } } });
    assert.equal(f32Bytes(ram), 0);
    assert.equal(
      (ram.info() as { config: { params: { vectors: { on_disk?: boolean } } } }).config.params.vectors
        .on_disk,
      true,
    );
    assert.deepEqual(await answers(ram, queries), expected);
    store.close();
    store = openStoreEngine({ dataDir });
    assert.equal(f32Bytes(store.collection('ram')), 0, 'still on disk after a restart');
    assert.deepEqual(await answers(store.collection('ram'), queries), expected);
    store.collection('ram').updateConfig({ vectors: { '': { on_disk: false } } });
    assert.ok((f32Bytes(store.collection('ram')) as number) >= 600 * DIM * 4, 'read back into RAM');
    assert.deepEqual(await answers(store.collection('ram'), queries), expected);
    store.close();
    store = openStoreEngine({ dataDir });
    assert.ok((f32Bytes(store.collection('ram')) as number) > 0, 'still in RAM after a restart');
    assert.deepEqual(await answers(store.collection('ram'), queries), expected);
    store.close();
  });

  test('an exact search reads its rows from SQLite in batched statements, not one lookup per row', async () => {
    const store = openStoreEngine({ dataDir: makeDataDir() });
    const { ram, disk } = twins(store, 2500, false);
    const proto = SqlitePersistence.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
    const counted = ['readPointVectors', 'readPointVectorsBatch'] as const;
    const originals = counted.map((name) => proto[name]);
    let statements = 0;
    let rows = 0;
    counted.forEach((name, i) => {
      if (originals[i] === undefined) return;
      proto[name] = function (this: unknown, ...args: unknown[]) {
        const keys = typeof args[1] === 'string' ? 1 : (args[1] as string[]).length;
        rows += keys;
        statements += Math.ceil(keys / 32);
        return originals[i]?.apply(this, args);
      };
    });
    try {
      const queries = randomVectors(4, 41);
      for (const vector of queries) {
        const ask = (c: CollectionEngine) =>
          c.search({ ...read(), vector, limit: 40, offset: 0, params: { exact: true } });
        assert.deepEqual(plainJson(await ask(disk)), plainJson(await ask(ram)));
      }
    } finally {
      counted.forEach((name, i) => {
        if (originals[i] !== undefined) proto[name] = originals[i];
      });
      store.close();
    }
    assert.ok(rows >= 160, `read ${rows} rows`);
    assert.ok(statements * 8 <= rows, `${statements} statements for ${rows} rows`);
  });

  test('a named vector is moved by its name; the others stay where they are', async () => {
    const store = openStoreEngine({ dataDir: makeDataDir() });
    const params: VectorParams = { size: DIM, distance: 'Dot', extras: {} };
    store.createCollection('named', { vectors: null, namedVectors: { a: params, b: params }, settings: {} });
    const c = store.collection('named');
    const [va, vb] = randomVectors(2, 3);
    c.upsert([{ id: 1, vector: { a: va as number[], b: vb as number[] }, payload: {} }]);
    const before = plainJson(c.retrieve([1], read(false, true)));
    c.updateConfig({ vectors: { b: { on_disk: true } } });
    assert.equal(f32Bytes(c, 'b'), 0);
    assert.ok((f32Bytes(c, 'a') as number) > 0);
    assert.deepEqual(plainJson(c.retrieve([1], read(false, true))), before);
    const hit = await c.search({ ...read(), using: 'b', vector: vb as number[], limit: 1, offset: 0 });
    assert.equal(hit[0]?.id, 1);
    store.close();
  });
});
