import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CollectionReader } from './collection-reader.js';
import type { CollectionEngine, PayloadFieldSchema } from './engine-api.js';
import { createTestCollection, filter, openTestStore, read, seededRandom } from './engine-test-kit.js';
import { type PointEntry, PointTable } from './point-table.js';
import { VectorConfig } from './vector-config.js';

const KEYWORD: PayloadFieldSchema = { type: 'keyword' };
const WITHOUT_SOURCE = filter({ must: [{ is_empty: { key: 'source' } }] });

/** The ids `c`'s exact search returns for the filter, next to the ids a test over every point expects. */
async function searchIds(c: CollectionEngine, json: unknown): Promise<unknown[]> {
  const hits = await c.search({ ...read(), vector: [1, 0.5], limit: 100, offset: 0, filter: filter(json) });
  return hits.map((h) => h.id).sort((a, b) => Number(a) - Number(b));
}

describe('filtered search through an indexed condition', () => {
  test('a search for the few points without `source` tests only them, not every point', async () => {
    const spec = { vectors: { size: 2, distance: 'Cosine' as const, extras: {} }, settings: {} };
    const vectors = new VectorConfig(spec);
    const table = new PointTable(new Map([['', 2]]), []);
    const random = seededRandom(3);
    for (let id = 1; id <= 4000; id++) {
      const payload = id % 1000 === 7 ? {} : { source: 'discord' };
      const vector = new Float32Array([random() - 0.5, random() - 0.5]);
      table.put(id, { dense: new Map([['', vector]]), sparse: new Map() }, payload, 0);
    }
    const reader = new CollectionReader(vectors, table, new Map([['source', KEYWORD]]));
    let tested = 0;
    const test = (entry: PointEntry) => {
      tested++;
      return entry.payload.source === undefined;
    };
    const query = reader.prepareQuery('', [1, 0]);
    const hits = await reader.nearest(query, 10, test, undefined, undefined, WITHOUT_SOURCE);
    assert.deepEqual(
      hits.map((h) => h.item.id).sort((a, b) => Number(a) - Number(b)),
      [7, 1007, 2007, 3007],
    );
    assert.ok(tested <= 4, `tested ${tested} points`);
    // Without the index, the same search still answers the same (testing every point).
    const plain = new CollectionReader(vectors, table, new Map());
    const again = await plain.nearest(query, 10, test, undefined, undefined, WITHOUT_SOURCE);
    assert.deepEqual(again, hits);
  });

  test('the matching points follow upserts, payload edits, deletes and the index going away', async () => {
    const { store } = openTestStore();
    const c = createTestCollection(store, 'sets', 2, 'Cosine');
    c.upsert([1, 2, 3, 4].map((id) => ({ id, vector: [1, id], payload: { source: 'st', n: id } })));
    c.upsert([{ id: 5, vector: [1, 5], payload: { n: 5 } }]);
    c.createIndex('source', KEYWORD);
    const empty = { must: [{ is_empty: { key: 'source' } }] };
    assert.deepEqual(await searchIds(c, empty), [5]);
    c.upsert([{ id: 2, vector: [1, 2], payload: { source: [], n: 2 } }]);
    assert.deepEqual(await searchIds(c, empty), [2, 5]);
    c.setPayload({ ids: [5] }, { source: 'mcp' });
    assert.deepEqual(await searchIds(c, empty), [2]);
    c.deletePayloadKeys({ ids: [3] }, ['source']);
    c.overwritePayload({ ids: [4] }, { source: null, n: 4 });
    assert.deepEqual(await searchIds(c, empty), [2, 3, 4]);
    assert.deepEqual(await searchIds(c, { must: [{ is_null: { key: 'source' } }] }), [4]);
    c.clearPayload({ ids: [1] });
    c.deletePoints({ ids: [3] });
    assert.deepEqual(await searchIds(c, empty), [1, 2, 4]);
    // The rest of the filter still applies to the indexed condition's points.
    assert.deepEqual(
      await searchIds(c, { must: [{ is_empty: { key: 'source' } }, { key: 'n', range: { gte: 2 } }] }),
      [2, 4],
    );
    c.deleteIndex('source');
    c.upsert([{ id: 6, vector: [1, 6], payload: {} }]);
    assert.deepEqual(await searchIds(c, empty), [1, 2, 4, 6]);
    c.createIndex('source', KEYWORD);
    assert.deepEqual(await searchIds(c, empty), [1, 2, 4, 6]);
  });

  test('a count of the points without `source` reads the indexed set, not every point', () => {
    const { store } = openTestStore();
    const c = createTestCollection(store, 'counted', 2, 'Cosine');
    c.upsert(
      Array.from({ length: 200 }, (_, i) => ({
        id: i + 1,
        vector: [1, i],
        payload: i % 50 === 0 ? { n: i } : { source: 'discord', n: i },
      })),
    );
    c.createIndex('source', KEYWORD);
    const empty = filter({ must: [{ is_empty: { key: 'source' } }] });
    assert.equal(c.count(empty), 4); // builds the set (one pass)
    const walk = PointTable.prototype.values;
    let walks = 0;
    PointTable.prototype.values = function (this: PointTable) {
      walks++;
      return walk.call(this);
    };
    try {
      assert.equal(c.count(empty), 4);
      c.upsert([{ id: 7, vector: [1, 7], payload: { n: 7 } }]);
      c.deletePoints({ ids: [1] });
      assert.equal(c.count(empty), 4);
      // The rest of the filter still applies to each of the set's points.
      assert.equal(
        c.count(filter({ must: [{ is_empty: { key: 'source' } }, { key: 'n', range: { gte: 100 } }] })),
        2,
      );
      assert.equal(walks, 0, 'a count walked every point');
      // Without an indexed condition, the count still tests every point.
      assert.equal(c.count(filter({ must: [{ key: 'n', range: { lt: 10 } }] })), 9);
    } finally {
      PointTable.prototype.values = walk;
    }
    assert.equal(c.count(empty), 4);
  });
});
