import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CollectionEngine, SearchParams, StoreEngine } from './engine-api.js';
import { makeDataDir, read, seededRandom } from './engine-test-kit.js';
import { GraphIndex } from './graph-index.js';
import { searchGraph } from './graph-search.js';
import { openStoreEngine } from './store-engine.js';
import { type SlotOwner, VectorSlots } from './vector-slots.js';

const DIM = 16;
const POINTS = 3000;
const K = 10;
/** 1 KB of int8 codes of 16 dimensions: the graph serves searches from 64 vectors on. */
const HNSW = { full_scan_threshold: 1 };

function randomVectors(count: number, seed: number): number[][] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => Array.from({ length: DIM }, () => random() * 2 - 1));
}

function createGraphed(
  store: StoreEngine,
  name: string,
  hnsw: Record<string, unknown> = HNSW,
): CollectionEngine {
  store.createCollection(name, {
    vectors: { size: DIM, distance: 'Cosine', extras: {} },
    settings: { hnsw_config: hnsw },
  });
  const collection = store.collection(name);
  const vectors = randomVectors(POINTS, 7);
  collection.upsert(vectors.map((vector, i) => ({ id: i + 1, vector, payload: { even: i % 2 === 0 } })));
  return collection;
}

/** Waits until the background slices have put every vector in the graph. */
async function waitIndexed(collection: CollectionEngine, count = POINTS): Promise<void> {
  while ((collection.info() as { indexed_vectors_count: number }).indexed_vectors_count < count) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function ids(collection: CollectionEngine, vector: number[], params?: SearchParams, limit = K) {
  const hits = await collection.search({
    ...read(),
    vector,
    limit,
    offset: 0,
    ...(params ? { params } : {}),
  });
  return hits.map((hit) => hit.id);
}

/** Mean share of the exact top k that the default (approximate) search returns, over `queries`. */
async function recallAtK(collection: CollectionEngine, queries: number[][]): Promise<number> {
  let found = 0;
  for (const query of queries) {
    const exact = new Set(await ids(collection, query, { exact: true }));
    for (const id of await ids(collection, query)) if (exact.has(id)) found++;
  }
  return found / (queries.length * K);
}

describe('approximate search past the full-scan threshold', () => {
  test('the graph finds the exact top 10 (recall@10 >= 0.95 over 40 queries), and hnsw_ef is its beam', async () => {
    const store = openStoreEngine({ dataDir: makeDataDir() });
    const collection = createGraphed(store, 'recall');
    await waitIndexed(collection);
    const queries = randomVectors(40, 99);
    assert.ok((await recallAtK(collection, queries)) >= 0.95);
    // A beam of 1 (k wins: 10) loses some exact hits on random data, so the graph really answered.
    let missed = 0;
    for (const query of queries) {
      const exact = new Set(await ids(collection, query, { exact: true }));
      missed += (await ids(collection, query, { hnswEf: 1 })).filter((id) => !exact.has(id)).length;
    }
    assert.ok(missed > 0, 'hnsw_ef 1 should miss some exact hits');
    store.close();
  });

  test('exact: true returns the brute-force top 10, scored exactly', async () => {
    const store = openStoreEngine({ dataDir: makeDataDir() });
    const collection = createGraphed(store, 'exact', { ...HNSW, m: 2, ef_construct: 4 });
    await waitIndexed(collection);
    const vectors = randomVectors(POINTS, 7).map(normalize);
    for (const query of randomVectors(20, 5)) {
      const q = normalize(query);
      const brute = vectors
        .map((v, i) => ({ id: i + 1, score: v.reduce((sum, x, d) => sum + x * (q[d] as number), 0) }))
        .sort((a, b) => b.score - a.score || a.id - b.id)
        .slice(0, K);
      const hits = await collection.search({
        ...read(),
        vector: query,
        limit: K,
        offset: 0,
        params: { exact: true },
      });
      assert.deepEqual(
        hits.map((h) => h.id),
        brute.map((b) => b.id),
      );
      for (const [i, hit] of hits.entries()) {
        assert.ok(Math.abs(hit.score - (brute[i] as { score: number }).score) < 1e-5);
      }
    }
    store.close();
  });

  test('an upsert is found and a delete is gone at once, before the graph takes them in', async () => {
    const store = openStoreEngine({ dataDir: makeDataDir() });
    const collection = createGraphed(store, 'writes');
    await waitIndexed(collection);
    const query = randomVectors(1, 123)[0] as number[];
    collection.upsert([{ id: 9999, vector: query, payload: {} }]);
    assert.equal((await ids(collection, query))[0], 9999);
    const before = await ids(collection, query);
    collection.deletePoints({ ids: [9999, before[1] as number] });
    const after = await ids(collection, query);
    assert.ok(!after.includes(9999) && !after.includes(before[1] as number));
    assert.equal(after.length, K);
    store.close();
  });

  test('a filter leaving few points is searched exactly; a broad one through the graph', async () => {
    const store = openStoreEngine({ dataDir: makeDataDir() });
    const collection = createGraphed(store, 'filtered');
    await waitIndexed(collection);
    const query = randomVectors(1, 321)[0] as number[];
    const few = { must: [{ key: 'even', match: { value: true } }, { has_id: [1, 3, 5, 7, 9, 11, 12] }] };
    const { parseFilter } = await import('../filter/index.js');
    const thin = await collection.search({
      ...read(),
      vector: query,
      limit: K,
      offset: 0,
      filter: parseFilter(few) as never,
    });
    assert.deepEqual(
      thin.map((h) => h.id).sort((a, b) => Number(a) - Number(b)),
      [1, 3, 5, 7, 9, 11],
    );
    const broad = parseFilter({ must: [{ key: 'even', match: { value: true } }] }) as never;
    const hits = await collection.search({
      ...read(true),
      vector: query,
      limit: K,
      offset: 0,
      filter: broad,
    });
    assert.equal(hits.length, K);
    assert.ok(hits.every((h) => (h.payload as { even: boolean }).even));
    // Half the points pass: the graph's candidates, filtered, still hold most of the exact filtered top 10.
    const exact = await collection.search({
      ...read(),
      vector: query,
      limit: K,
      offset: 0,
      filter: broad,
      params: { exact: true },
    });
    const exactIds = new Set(exact.map((h) => h.id));
    assert.ok(hits.filter((h) => exactIds.has(h.id)).length >= 8);
    store.close();
  });

  test('a restart rebuilds the graph from the stored points', async () => {
    const dataDir = makeDataDir();
    const first = openStoreEngine({ dataDir });
    createGraphed(first, 'restart');
    first.close();
    const store = openStoreEngine({ dataDir });
    const collection = store.collection('restart');
    await waitIndexed(collection);
    assert.ok((await recallAtK(collection, randomVectors(20, 11))) >= 0.95);
    store.close();
  });

  test('below the threshold, or with m 0, nothing is indexed', async () => {
    const store = openStoreEngine({ dataDir: makeDataDir() });
    const small = createGraphed(store, 'small', {});
    const off = createGraphed(store, 'off', { ...HNSW, m: 0 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    for (const collection of [small, off]) {
      assert.equal((collection.info() as { indexed_vectors_count: number }).indexed_vectors_count, 0);
    }
    store.close();
  });
});

function normalize(vector: number[]): number[] {
  const norm = Math.hypot(...vector);
  return vector.map((x) => Math.fround(Math.fround(x) / norm));
}

describe('the beam decides between graph and exact', () => {
  test('hnsw_ef past a sixteenth of the points (or 4096) is searched exactly, not by a graph walk', () => {
    const slots = new VectorSlots<SlotOwner>(DIM);
    const graph = new GraphIndex(slots, { distance: 'Cosine', m: 16, efConstruct: 100, threshold: 10 });
    slots.observer = graph;
    for (const vector of randomVectors(POINTS, 7))
      slots.add({ slot: -1 }, Float32Array.from(normalize(vector)));
    graph.flush();
    const request = {
      slots,
      distance: 'Cosine' as const,
      query: Float32Array.from(normalize(randomVectors(1, 5)[0] as number[])),
      k: K,
      tieBreak: (a: SlotOwner, b: SlotOwner) => a.slot - b.slot,
    };
    assert.equal(searchGraph(request, graph, { hnswEf: 100 })?.length, K);
    // 1,000 of 3,000 points: the walk costs more than the scan and holds the event loop meanwhile.
    assert.equal(searchGraph(request, graph, { hnswEf: 1000 }), undefined);
    graph.close();
  });
});
