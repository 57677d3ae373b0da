import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CollectionReader } from './collection-reader.js';
import type { CollectionEngine, PayloadFieldSchema } from './engine-api.js';
import {
  createTestCollection,
  filter,
  makeDataDir,
  openTestStore,
  read,
  seededRandom,
} from './engine-test-kit.js';
import { openStoreEngine } from './store-engine.js';
import { type PointEntry, PointTable } from './point-table.js';
import { VectorConfig } from './vector-config.js';

const FLOAT: PayloadFieldSchema = { type: 'float' };

/** Ids (sorted) of `c`'s search for the filter, and its count. */
async function answer(c: CollectionEngine, json: unknown): Promise<{ ids: unknown[]; count: number }> {
  const hits = await c.search({ ...read(), vector: [1, 0.5], limit: 1000, offset: 0, filter: filter(json) });
  const ids = hits.map((h) => h.id).sort((a, b) => Number(a) - Number(b));
  return { ids, count: c.count(filter(json)) };
}

describe('range conditions on an indexed number', () => {
  test('a thin range (a precise window) is searched among its points, not tested on every point', async () => {
    const spec = { vectors: { size: 2, distance: 'Cosine' as const, extras: {} }, settings: {} };
    const table = new PointTable(new Map([['', 2]]), []);
    const random = seededRandom(5);
    for (let id = 1; id <= 4000; id++) {
      const vector = new Float32Array([random() - 0.5, random() - 0.5]);
      table.put(id, { dense: new Map([['', vector]]), sparse: new Map() }, { timestamp: id * 10 }, 0);
    }
    const reader = new CollectionReader(new VectorConfig(spec), table, new Map([['timestamp', FLOAT]]));
    let tested = 0;
    const inWindow = (entry: PointEntry) => {
      tested++;
      const ts = entry.payload.timestamp as number;
      return ts >= 1000 && ts < 1050;
    };
    // As recall sends it: the scope's own conditions, and the window nested in `must`.
    const window = filter({
      must: [{ must: [{ key: 'timestamp', range: { gte: 1000, lt: 1050 } }] }],
      must_not: [{ key: 'isDm', match: { value: true } }],
    });
    const query = reader.prepareQuery('', [1, 0]);
    // The first search asks for the sorted values and goes on as before; they are ready a few slices later.
    const first = await reader.nearest(query, 10, inWindow, undefined, undefined, window);
    await new Promise((resolve) => setTimeout(resolve, 20));
    tested = 0;
    const hits = await reader.nearest(query, 10, inWindow, undefined, undefined, window);
    assert.deepEqual(hits, first);
    assert.deepEqual(
      hits.map((h) => h.item.id).sort((a, b) => Number(a) - Number(b)),
      [100, 101, 102, 103, 104],
    );
    assert.ok(tested <= 6, `tested ${tested} points`);
    // Without the index the same search answers the same, testing every point.
    const plain = new CollectionReader(new VectorConfig(spec), table, new Map());
    assert.deepEqual(await plain.nearest(query, 10, inWindow, undefined, undefined, window), hits);
  });

  test('answers as an unindexed collection through upserts, rewrites, payload edits, arrays and deletes', async () => {
    const { store } = openTestStore();
    const indexed = createTestCollection(store, 'ranged', 2, 'Cosine');
    const plain = createTestCollection(store, 'plain', 2, 'Cosine');
    indexed.createIndex('timestamp', FLOAT);
    const random = seededRandom(11);
    const both = (run: (c: CollectionEngine) => void) => [indexed, plain].forEach(run);
    const stamp = (): unknown => {
      const r = random();
      if (r < 0.1) return [Math.floor(random() * 500), Math.floor(random() * 500)];
      if (r < 0.15) return 'yesterday';
      if (r < 0.2) return null;
      return Math.floor(random() * 500) + (r < 0.5 ? 0.5 : 0);
    };
    const filters = [
      { must: [{ key: 'timestamp', range: { gte: 100, lt: 120 } }] },
      { must: [{ key: 'timestamp', range: { gt: 100, lte: 120 } }] },
      { must: [{ key: 'timestamp', range: { lt: 30 } }] },
      {
        must: [
          { must: [{ key: 'timestamp', range: { gte: 200.5, lte: 201 } }] },
          { key: 'n', range: { gte: 0 } },
        ],
      },
      { must: [{ key: 'timestamp', range: { gte: 0, lte: 1e9 } }] },
    ];
    let nextId = 1;
    for (let step = 0; step < 60; step++) {
      const points = Array.from({ length: 40 }, () => {
        // Some ids come again: a rewrite with a new number (and a new vector).
        const id = random() < 0.2 && nextId > 1 ? 1 + Math.floor(random() * (nextId - 1)) : nextId++;
        return { id, vector: [random() - 0.5, random() - 0.5], payload: { timestamp: stamp(), n: id } };
      });
      both((c) => c.upsert(points));
      const edited = [1 + Math.floor(random() * (nextId - 1))];
      const moved = { timestamp: stamp() };
      both((c) => c.setPayload({ ids: edited }, moved));
      const gone = [1 + Math.floor(random() * (nextId - 1)), 1 + Math.floor(random() * (nextId - 1))];
      both((c) => c.deletePoints({ ids: gone }));
      for (const json of filters) {
        assert.deepEqual(
          await answer(indexed, json),
          await answer(plain, json),
          `step ${step}: ${JSON.stringify(json)}`,
        );
      }
    }
    assert.ok((await answer(plain, filters[0])).ids.length > 0, 'the window holds some points');
  });

  test('a store opened with a numeric index has its values sorted before it serves a window', async () => {
    const dataDir = makeDataDir();
    const first = openStoreEngine({ dataDir });
    const c = createTestCollection(first, 'opened', 2, 'Cosine');
    c.upsert(
      Array.from({ length: 300 }, (_, i) => ({ id: i + 1, vector: [1, i], payload: { timestamp: i } })),
    );
    c.createIndex('timestamp', FLOAT);
    first.close();
    const store = openStoreEngine({ dataDir });
    try {
      const walk = PointTable.prototype.values;
      let walks = 0;
      PointTable.prototype.values = function (this: PointTable) {
        walks++;
        return walk.call(this);
      };
      try {
        const window = { must: [{ key: 'timestamp', range: { gte: 10, lt: 13 } }] };
        assert.deepEqual((await answer(store.collection('opened'), window)).ids, [11, 12, 13]);
        assert.equal(walks, 0, 'the first window search sorted the values (walked every point)');
      } finally {
        PointTable.prototype.values = walk;
      }
    } finally {
      store.close();
    }
  });
});
