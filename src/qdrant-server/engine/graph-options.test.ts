/**
 * @module Tests for the graph's settings: out-of-range `hnsw_config` values never reach usearch (m 1 threw
 * after the SQLite commit, a huge m allocated gigabytes), a vector's own `hnsw_config` overrides the
 * collection's, and Dot/Euclid graphs keep their recall at extreme scales.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CollectionEngine, CollectionSpec, Distance } from './engine-api.js';
import { makeDataDir, read, seededRandom } from './engine-test-kit.js';
import { readGraphOptions } from './graph-options.js';
import { openStoreEngine } from './store-engine.js';
import { VectorConfig } from './vector-config.js';

const DIM = 8;

function randomVectors(count: number, seed: number, scale = 1): number[][] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => Array.from({ length: DIM }, () => (random() * 2 - 1) * scale));
}

function indexedCount(collection: CollectionEngine): number {
  return (collection.info() as { indexed_vectors_count: number }).indexed_vectors_count;
}

/** Waits until the graph holds `count` vectors, or gives up after 30 s so that a dropped graph fails the test. */
async function waitIndexed(collection: CollectionEngine, count: number): Promise<void> {
  for (let polls = 0; polls < 6000 && indexedCount(collection) < count; polls++) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function topIds(collection: CollectionEngine, vector: number[], exact: boolean): Promise<unknown[]> {
  const hits = await collection.search({ ...read(), vector, limit: 10, offset: 0, params: { exact } });
  return hits.map((hit) => hit.id);
}

describe('graph settings', () => {
  test('m 1 (valid in Qdrant) is acknowledged, searchable, and the store reopens', async () => {
    const dataDir = makeDataDir();
    const store = openStoreEngine({ dataDir });
    store.createCollection('c', {
      vectors: { size: DIM, distance: 'Cosine', extras: {} },
      settings: { hnsw_config: { m: 1, full_scan_threshold: 1 } },
    });
    const collection = store.collection('c');
    const vectors = randomVectors(300, 1);
    collection.upsert(vectors.map((vector, i) => ({ id: i + 1, vector, payload: {} })));
    await waitIndexed(collection, 300);
    assert.equal(indexedCount(collection), 300);
    collection.upsert([{ id: 500, vector: randomVectors(1, 2)[0] as number[], payload: {} }]);
    assert.equal((await topIds(collection, vectors[127] as number[], false))[0], 128);
    store.close();
    const reopened = openStoreEngine({ dataDir });
    assert.equal((reopened.collection('c').info() as { points_count: number }).points_count, 301);
    reopened.close();
  });

  const vectors = new VectorConfig({
    vectors: null,
    namedVectors: {
      a: { size: DIM, distance: 'Cosine', extras: {} },
      off: { size: DIM, distance: 'Cosine', extras: { hnsw_config: { m: 0 } } },
      own: { size: DIM, distance: 'Dot', extras: { hnsw_config: { m: 8, full_scan_threshold: 20 } } },
    },
  } as unknown as CollectionSpec);
  const readOptions = (hnsw: Record<string, unknown>) =>
    readGraphOptions({ settings: { hnsw_config: hnsw } } as unknown as CollectionSpec, vectors);

  test('m and ef_construct are clamped before they reach usearch', () => {
    assert.equal(readOptions({ m: 1 }).get('a')?.m, 2);
    assert.equal(readOptions({ m: 1_000_000, ef_construct: 1e9 }).get('a')?.m, 128);
    assert.equal(readOptions({ m: 1_000_000, ef_construct: 1e9 }).get('a')?.efConstruct, 1024);
  });

  test('a vector own hnsw_config overrides the collection one, key by key', () => {
    const options = readOptions({ m: 32, full_scan_threshold: 10 });
    assert.equal(options.get('a')?.m, 32);
    assert.equal(options.get('off')?.threshold, Number.POSITIVE_INFINITY);
    assert.deepEqual(options.get('own'), { distance: 'Dot', m: 8, efConstruct: 100, threshold: 2560 });
  });

  test('m 0 on one named vector leaves it unindexed', async () => {
    const store = openStoreEngine({ dataDir: makeDataDir() });
    store.createCollection('c', {
      vectors: { size: DIM, distance: 'Cosine', extras: { hnsw_config: { m: 0 } } },
      settings: { hnsw_config: { full_scan_threshold: 1 } },
    });
    const collection = store.collection('c');
    collection.upsert(randomVectors(500, 3).map((vector, i) => ({ id: i + 1, vector, payload: {} })));
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(indexedCount(collection), 0);
    store.close();
  });

  test("optimizers_config.indexing_threshold says when the graph is built, as Qdrant's does (0: never)", async () => {
    // Qdrant's own test_disable_indexing: 100 vectors of 256 (100 KB of f32) against 10 KB, and against 0.
    const store = openStoreEngine({ dataDir: makeDataDir() });
    const random = seededRandom(11);
    const points = Array.from({ length: 100 }, (_, i) => ({
      id: i + 1,
      vector: Array.from({ length: 256 }, () => random() * 2 - 1),
      payload: {},
    }));
    for (const [name, threshold] of [
      ['indexed', 10],
      ['unindexed', 0],
    ] as const) {
      store.createCollection(name, {
        vectors: { size: 256, distance: 'Dot', extras: {} },
        // A full-scan threshold of 1 KB would build a graph at 1 vector: 0 must still mean none.
        settings: {
          hnsw_config: { full_scan_threshold: 1 },
          optimizers_config: { indexing_threshold: threshold },
        },
      });
      store.collection(name).upsert(points);
    }
    const indexed = store.collection('indexed');
    await waitIndexed(indexed, 100);
    assert.equal(indexedCount(indexed), 100);
    assert.equal(indexedCount(store.collection('unindexed')), 0);
    // The alias Qdrant reads too; under the default full-scan threshold, searches of the graph stay exact.
    store.createCollection('alias', {
      vectors: { size: 256, distance: 'Dot', extras: {} },
      settings: { optimizers_config: { indexing_threshold_kb: 10 } },
    });
    const alias = store.collection('alias');
    alias.upsert(points);
    await waitIndexed(alias, 100);
    assert.equal(indexedCount(alias), 100);
    const query = points[7]!.vector;
    assert.deepEqual(await topIds(alias, query, false), await topIds(alias, query, true));
    store.close();
  });

  for (const [distance, scale] of [
    ['Euclid', 1e6],
    ['Euclid', 1e-6],
    ['Dot', 1e6],
  ] as const) {
    test(`a ${distance} graph of vectors scaled by ${scale} keeps recall@10 >= 0.9`, async () => {
      const store = openStoreEngine({ dataDir: makeDataDir() });
      store.createCollection('c', {
        vectors: { size: DIM, distance: distance as Distance, extras: {} },
        settings: { hnsw_config: { full_scan_threshold: 1 } },
      });
      const collection = store.collection('c');
      collection.upsert(
        randomVectors(3000, 7, scale).map((vector, i) => ({ id: i + 1, vector, payload: {} })),
      );
      await waitIndexed(collection, 3000);
      assert.equal(indexedCount(collection), 3000);
      let found = 0;
      const queries = randomVectors(20, 99, scale);
      for (const query of queries) {
        const exact = new Set(await topIds(collection, query, true));
        for (const id of await topIds(collection, query, false)) if (exact.has(id)) found++;
      }
      assert.ok(found / 200 >= 0.9, `recall@10 ${found / 200}`);
      store.close();
    });
  }
});
