/** @module Tests that a collection's HNSW graph is saved with it and taken back at a start, never when stale or damaged (issue 36). */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { CollectionEngine, SearchParams, StoreEngine } from './engine-api.js';
import { makeDataDir, read, seededRandom } from './engine-test-kit.js';
import { GRAPH_FOLDER } from './sqlite-persistence.js';
import { openStoreEngine } from './store-engine.js';

const DIM = 16;
const POINTS = 3000;
const K = 10;
const FIXTURE = join(import.meta.dirname, 'graph-child.fixture.ts');

function randomVectors(count: number, seed: number): number[][] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => Array.from({ length: DIM }, () => random() * 2 - 1));
}

const indexedCount = (collection: CollectionEngine) =>
  (collection.info() as { indexed_vectors_count: number }).indexed_vectors_count;

async function waitIndexed(collection: CollectionEngine, count: number): Promise<void> {
  while (indexedCount(collection) < count) await new Promise((resolve) => setTimeout(resolve, 5));
}

async function ids(collection: CollectionEngine, vector: number[], params?: SearchParams) {
  const hits = await collection.search({
    ...read(),
    vector,
    limit: K,
    offset: 0,
    ...(params ? { params } : {}),
  });
  return hits.map((hit) => hit.id);
}

/** Mean share of the exact top 10 the default (approximate) search returns, and how many a beam of 1 misses. */
async function compareWithExact(collection: CollectionEngine) {
  let [found, missedByNarrowBeam] = [0, 0];
  const queries = randomVectors(40, 99);
  for (const query of queries) {
    const exact = new Set(await ids(collection, query, { exact: true }));
    for (const id of await ids(collection, query)) if (exact.has(id)) found++;
    missedByNarrowBeam += (await ids(collection, query, { hnswEf: 1 })).filter((id) => !exact.has(id)).length;
  }
  return { recall: found / (queries.length * K), missedByNarrowBeam };
}

/** A store in a fresh dir with one graphed collection of POINTS random vectors, indexed, then closed (saved). */
async function saveIndexedStore(): Promise<string> {
  const dataDir = makeDataDir();
  const store = openStoreEngine({ dataDir });
  store.createCollection('kept', {
    vectors: { size: DIM, distance: 'Cosine', extras: {} },
    // 1 KB of int8 codes of 16 dimensions: the graph serves searches from 64 vectors on.
    settings: { hnsw_config: { full_scan_threshold: 1 } },
  });
  const collection = store.collection('kept');
  collection.upsert(randomVectors(POINTS, 7).map((vector, i) => ({ id: i + 1, vector, payload: {} })));
  await waitIndexed(collection, POINTS);
  store.close();
  return dataDir;
}

function graphFile(dataDir: string, ending: string): string {
  const name = readdirSync(join(dataDir, GRAPH_FOLDER)).find((file) => file.endsWith(ending));
  assert.ok(name !== undefined, `a saved ${ending} file`);
  return join(dataDir, GRAPH_FOLDER, name);
}

function reopen(dataDir: string): { store: StoreEngine; collection: CollectionEngine } {
  const store = openStoreEngine({ dataDir });
  return { store, collection: store.collection('kept') };
}

describe('the HNSW graph kept across restarts', () => {
  test('a restarted store searches with its saved graph at once, instead of rebuilding it', async () => {
    const { store, collection } = reopen(await saveIndexedStore());
    try {
      // Nothing awaited since the open: no background slice has run, so the graph was loaded, not rebuilt.
      assert.equal(indexedCount(collection), POINTS);
      const { recall, missedByNarrowBeam } = await compareWithExact(collection);
      assert.ok(recall >= 0.95, `recall@10 ${recall}`);
      assert.ok(missedByNarrowBeam > 0, 'hnsw_ef 1 should miss some exact hits: the graph answered');
    } finally {
      store.close();
    }
  });

  const damages: [string, (dataDir: string) => void][] = [
    ['the graph file cut short', (dir) => truncateSync(graphFile(dir, '.usearch'), 4096)],
    [
      'a byte of the graph changed',
      (dir) => {
        const path = graphFile(dir, '.usearch');
        const bytes = readFileSync(path);
        bytes[Math.floor(bytes.length / 2)]! ^= 0xff;
        writeFileSync(path, bytes);
      },
    ],
    ['the keys file cut short', (dir) => truncateSync(graphFile(dir, '.keys'), 10)],
  ];
  for (const [damage, apply] of damages) {
    test(`${damage}: the graph is rebuilt from the points, and searches answer right`, async () => {
      const dataDir = await saveIndexedStore();
      apply(dataDir);
      const { store, collection } = reopen(dataDir);
      try {
        assert.equal(indexedCount(collection), 0, 'the damaged graph is not used');
        assert.equal(collection.count(), POINTS);
        await waitIndexed(collection, POINTS);
        assert.ok((await compareWithExact(collection)).recall >= 0.95);
      } finally {
        store.close();
      }
    });
  }

  test('a deleted collection takes its saved graph with it; one created again under its name builds its own', async () => {
    const dataDir = await saveIndexedStore();
    const { store } = reopen(dataDir);
    store.deleteCollection('kept');
    assert.deepEqual(readdirSync(join(dataDir, GRAPH_FOLDER)), []);
    store.createCollection('kept', {
      vectors: { size: DIM, distance: 'Cosine', extras: {} },
      settings: { hnsw_config: { full_scan_threshold: 1 } },
    });
    // The same ids with other vectors: the old graph would point each id at its old vector.
    const vectors = randomVectors(POINTS, 21);
    store.collection('kept').upsert(vectors.map((vector, i) => ({ id: i + 1, vector, payload: {} })));
    store.close();
    const { store: again, collection } = reopen(dataDir);
    try {
      assert.equal(indexedCount(collection), 0, 'never indexed, so nothing saved to take');
      await waitIndexed(collection, POINTS);
      for (const i of [0, 999, 2999]) assert.equal((await ids(collection, vectors[i]!))[0], i + 1);
    } finally {
      again.close();
    }
  });

  test('points changed after the save and then a kill -9: only the unchanged ones are taken from the graph', async () => {
    const dataDir = await saveIndexedStore();
    const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, dataDir, 'kept', String(DIM)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const line = await new Promise<string>((resolve) =>
      child.stdout.once('data', (data) => resolve(String(data))),
    );
    assert.equal(line.trim(), 'changed');
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGKILL');
    await exited;

    const { store, collection } = reopen(dataDir);
    try {
      // 300 overwritten and 300 deleted points are not taken from the graph; 300 new ones were never in it.
      assert.equal(indexedCount(collection), POINTS - 600);
      const [moved, added] = [randomVectors(600, 11).slice(0, 300), randomVectors(600, 11).slice(300)];
      // Overwritten points are found by their new vectors, new ones by theirs, deleted ones nowhere: at once...
      for (const [i, vector] of moved.entries()) assert.equal((await ids(collection, vector))[0], i + 1);
      for (const [i, vector] of added.entries()) assert.equal((await ids(collection, vector))[0], i + 3001);
      assert.deepEqual(collection.retrieve([301, 450, 600], read()), []);
      // ... and once the graph has taken the changes in.
      await waitIndexed(collection, POINTS);
      for (const [i, vector] of moved.entries()) assert.equal((await ids(collection, vector))[0], i + 1);
      assert.ok((await compareWithExact(collection)).recall >= 0.95);
    } finally {
      store.close();
    }
  });
});
