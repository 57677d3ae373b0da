/**
 * @module What every PointStore must do, as one node:test suite run against each implementation (the
 * in-memory fake, the Qdrant adapter over the embedded store, and over a real Qdrant when QDRANT_URL is set):
 * whatever the service relies on behaves the same on all of them, so a test on the fake proves something.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { StoreError } from '../../errors/memory-pool-error.js';
import { computeCosine } from '../../runtime/cosine-similarity.js';
import type { StoredPointId, StoreFilter } from '../point-store.js';
import { allOf, isEmpty, matchAny, matchValue, sourcedPoints, unsourcedPoints } from '../store-filters.js';
import type { MemoryStore } from '../memory-store.js';

/** One store under test; collections named by `uniqueCollection` are removed by `close()`. */
export interface PointStoreTarget {
  readonly store: MemoryStore;
  uniqueCollection(prefix: string): string;
  close(): Promise<void>;
}

const UUID_UPPER = '3F2504E0-4F89-11D3-9A0C-0305E82C3301';

/** Four points of a 4-d collection, each nearest to one axis, with the payloads the service writes. */
const seedPoints = [
  {
    id: 1,
    vector: [1, 0, 0, 0],
    payload: { source: 'discord', channelId: 'c1', text: 'the harbour at dawn', timestamp: 100 },
  },
  {
    id: 2,
    vector: [0.9, 0.1, 0, 0],
    payload: { source: 'api', channelId: 'c2', text: 'lighthouse keeper', timestamp: 200, isDm: true },
  },
  {
    id: 3,
    vector: [0, 1, 0, 0],
    payload: { text: 'a SillyTavern memory', timestamp: 300, speakers: ['Helen', 'Mythos'] },
  },
  {
    id: 4,
    vector: [0, 0, 1, 0],
    payload: { source: 'discord', channelId: 'c1', text: 'winter evenings', timestamp: 400, guildId: null },
  },
];

/** Expects a StoreError with `code` and `retryable`, the way callers (the writer's backoff, the HTTP answer) read it. */
const storeError = (code: string, retryable: boolean) => (error: unknown) => {
  assert.ok(error instanceof StoreError, `a StoreError, got ${String(error)}`);
  assert.equal(error.code, code, error.message);
  assert.equal(error.retryable, retryable, error.message);
  return true;
};

/** Defines the suite; `open` is called once, before its tests. */
export function describePointStoreContract(name: string, open: () => Promise<PointStoreTarget>): void {
  describe(`PointStore contract: ${name}`, () => {
    let target: PointStoreTarget;
    let store: MemoryStore;
    before(async () => {
      target = await open();
      store = target.store;
    });
    after(() => target?.close());

    const seeded = async (prefix: string) => {
      const collection = target.uniqueCollection(prefix);
      await store.createCollection(collection, 4);
      await store.upsertPoints(collection, seedPoints);
      return collection;
    };
    const ids = (points: readonly { id: StoredPointId }[]) => points.map((p) => p.id);
    const searchIds = async (collection: string, filter: StoreFilter) =>
      ids(await store.searchPoints(collection, { vector: [1, 0, 0, 0], limit: 10, filter })).sort();

    test('a created collection is described, listed, and created again without error; a missing one is undefined', async () => {
      const collection = target.uniqueCollection('c_shape');
      assert.equal(await store.describeCollection(collection), undefined);
      await store.createCollection(collection, 4);
      await store.createCollection(collection, 4);
      assert.ok((await store.listCollections()).includes(collection));
      await store.upsertPoints(collection, seedPoints.slice(0, 2));
      assert.deepEqual(await store.describeCollection(collection), {
        vectorSize: 4,
        distance: 'Cosine',
        namedVectors: [],
        namedVectorSizes: {},
        sparseVectors: {},
        payloadIndexes: {},
        pointsCount: 2,
      });
      await store.probe();
    });

    test('a hybrid collection is described by its named dense vector and its idf sparse vector', async () => {
      const collection = target.uniqueCollection('c_hybrid_shape');
      await store.createHybridCollection(collection, 3);
      await store.createHybridCollection(collection, 3);
      assert.deepEqual(await store.describeCollection(collection), {
        vectorSize: undefined,
        distance: undefined,
        namedVectors: ['dense'],
        namedVectorSizes: { dense: 3 },
        sparseVectors: { bm25: 'idf' },
        payloadIndexes: {},
        pointsCount: 0,
      });
    });

    test('payloads come back as written; an upsert of a known id replaces its payload and vector whole', async () => {
      const collection = await seeded('c_overwrite');
      const payload = {
        source: 'api',
        text: 'Алиса 初音ミク ✓',
        nested: { list: [1, 'two', null] },
        flag: false,
      };
      await store.upsertPoints(collection, [{ id: UUID_UPPER, vector: [0, 0, 0, 1], payload }]);
      const [uuidPoint] = (
        await store.scrollPoints(collection, { limit: 10, filter: { must: [{ has_id: [UUID_UPPER] }] } })
      ).points;
      assert.deepEqual(uuidPoint, { id: UUID_UPPER.toLowerCase(), payload });

      await store.upsertPoints(collection, [{ id: 1, vector: [0, 0, 0, 1], payload: { text: 'rewritten' } }]);
      const [first] = (await store.scrollPoints(collection, { limit: 1 })).points;
      assert.deepEqual(first, { id: 1, payload: { text: 'rewritten' } }, 'no key of the old payload is left');
      const [nearest] = await store.searchPoints(collection, { vector: [0, 0, 0, 1], limit: 1 });
      assert.ok(
        nearest && [1, UUID_UPPER.toLowerCase()].includes(nearest.id as never),
        'the new vector is searched',
      );
      assert.equal(await store.countPoints(collection), 5, 'overwriting adds no point');
    });

    test('search ranks by cosine, nearest first, within limit and score threshold, with payloads', async () => {
      const collection = await seeded('c_search');
      const hits = await store.searchPoints(collection, { vector: [2, 0, 0, 0], limit: 3 });
      assert.deepEqual(ids(hits), [1, 2, 3]);
      assert.ok(
        Math.abs(hits[0]!.score - 1) < 1e-5,
        `cosine of the same direction is 1, got ${hits[0]!.score}`,
      );
      assert.ok(Math.abs(hits[1]!.score - 0.9 / Math.sqrt(0.82)) < 1e-5);
      assert.deepEqual(hits[0]!.payload, seedPoints[0]!.payload);
      const above = await store.searchPoints(collection, {
        vector: [1, 0, 0, 0],
        limit: 10,
        scoreThreshold: 0.5,
      });
      assert.deepEqual(ids(above), [1, 2]);
      assert.deepEqual(ids(await store.searchPoints(collection, { vector: [1, 0, 0, 0], limit: 1 })), [1]);
    });

    test('filters select exactly the points the service means (source, channel, DMs, SillyTavern points, ids, ranges)', async () => {
      const collection = await seeded('c_filters');
      assert.deepEqual(await searchIds(collection, allOf(matchValue('source', 'discord'))), [1, 4]);
      assert.deepEqual(await searchIds(collection, allOf(matchAny('source', ['api', 'hermes']))), [2]);
      assert.deepEqual(await searchIds(collection, unsourcedPoints()), [3]);
      assert.deepEqual(await searchIds(collection, sourcedPoints()), [1, 2, 4]);
      assert.deepEqual(
        await searchIds(collection, allOf(isEmpty('guildId'))),
        [1, 2, 3, 4],
        'null counts as empty',
      );
      assert.deepEqual(await searchIds(collection, { must_not: [matchValue('isDm', true)] }), [1, 3, 4]);
      assert.deepEqual(
        await searchIds(collection, allOf(matchValue('speakers', 'Helen'))),
        [3],
        'a list matches by any element',
      );
      assert.deepEqual(await searchIds(collection, { must_not: [{ has_id: [1, 3] }] }), [2, 4]);
      assert.deepEqual(
        await searchIds(collection, allOf({ key: 'timestamp', range: { gte: 200, lt: 400 } })),
        [2, 3],
      );
      assert.deepEqual(
        await searchIds(collection, {
          must: [
            {
              should: [
                matchValue('channelId', 'c2'),
                { must: [isEmpty('channelId'), { must_not: [matchValue('isDm', true)] }] },
              ],
            },
          ],
        }),
        [2, 3],
        'nested should / must / must_not, as the recall scopes send them',
      );
    });

    test('scroll pages through every point once, in id order, and says when there is no next page', async () => {
      const collection = await seeded('c_scroll');
      const seen: StoredPointId[] = [];
      let offset: StoredPointId | undefined;
      let pages = 0;
      do {
        const page = await store.scrollPoints(collection, {
          limit: 3,
          ...(offset === undefined ? {} : { offset }),
        });
        seen.push(...ids(page.points));
        offset = page.nextOffset;
        pages += 1;
      } while (offset !== undefined && pages < 10);
      assert.deepEqual(seen, [1, 2, 3, 4]);
      assert.equal(pages, 2);
      const filtered = await store.scrollPoints(collection, {
        limit: 10,
        filter: allOf(matchValue('channelId', 'c1')),
      });
      assert.deepEqual(
        { ids: ids(filtered.points), next: filtered.nextOffset },
        { ids: [1, 4], next: undefined },
      );
    });

    test('scroll with payload keys named returns only those keys of each point', async () => {
      const collection = await seeded('c_scroll_keys');
      const page = await store.scrollPoints(collection, { limit: 2, withPayload: ['channelId', 'isDm'] });
      assert.deepEqual(
        page.points.map((p) => ({ id: p.id, payload: p.payload })),
        [
          { id: 1, payload: { channelId: 'c1' } },
          { id: 2, payload: { channelId: 'c2', isDm: true } },
        ],
      );
      assert.equal(page.nextOffset, 3);
    });

    test('count counts what a filter selects; a missing collection holds 0', async () => {
      const collection = await seeded('c_count');
      assert.equal(await store.countPoints(collection), 4);
      assert.equal(await store.countPoints(collection, sourcedPoints()), 3);
      assert.equal(await store.countPoints(target.uniqueCollection('c_never_created')), 0);
    });

    test('delete by ids and by filter removes exactly those; missing ids and collections are not errors', async () => {
      const collection = await seeded('c_delete');
      await store.deletePoints(collection, { ids: [2, 99] });
      assert.deepEqual(ids((await store.scrollPoints(collection, { limit: 10 })).points), [1, 3, 4]);
      await store.deletePoints(collection, { filter: unsourcedPoints() });
      assert.deepEqual(ids((await store.scrollPoints(collection, { limit: 10 })).points), [1, 4]);
      await store.deletePoints(target.uniqueCollection('c_never_created'), { ids: [1] });
      await store.deletePoints(target.uniqueCollection('c_never_created'), { filter: sourcedPoints() });
    });

    test('failures are StoreErrors saying whether a retry can help', async () => {
      const missing = target.uniqueCollection('c_missing');
      const point = { id: 1, vector: [1, 0, 0, 0], payload: {} };
      // The collection was deleted by another client: retrying after the guard recreates it helps.
      await assert.rejects(store.upsertPoints(missing, [point]), storeError('collection_missing', true));
      await assert.rejects(
        store.searchPoints(missing, { vector: [1, 0, 0, 0], limit: 1 }),
        storeError('collection_missing', true),
      );
      await assert.rejects(store.scrollPoints(missing, { limit: 1 }), storeError('collection_missing', true));
      const collection = await seeded('c_refused');
      await assert.rejects(
        store.upsertPoints(collection, [{ ...point, vector: [1, 0, 0] }]),
        storeError('store_failed', false),
      );
      await assert.rejects(
        store.upsertPoints(collection, [{ ...point, id: 'not-a-uuid' }]),
        storeError('store_failed', false),
      );
      await assert.rejects(
        store.searchPoints(collection, { vector: [1, 0], limit: 1 }),
        storeError('store_failed', false),
      );
      const hybrid = target.uniqueCollection('c_refused_hybrid');
      await store.createHybridCollection(hybrid, 4);
      await assert.rejects(store.upsertPoints(hybrid, [point]), storeError('store_failed', false));
      assert.equal(await store.countPoints(collection), 4, 'a refused batch writes nothing');
    });

    test('hybrid points are queried by their dense vector, with only the payload fields asked for, and read by id', async () => {
      const collection = target.uniqueCollection('c_hybrid');
      await store.createHybridCollection(collection, 3);
      await store.upsertHybridPoints(collection, [
        {
          id: 1,
          dense: [1, 0, 0],
          sparse: { indices: [7], values: [1] },
          payload: { chunkId: 'a', messageIds: '1', text: 'x' },
        },
        {
          id: 2,
          dense: [0, 1, 0],
          sparse: { indices: [8], values: [1] },
          payload: { chunkId: 'b', messageIds: '2', text: 'y' },
        },
      ]);
      const hits = await store.queryPoints(collection, {
        query: [0, 1, 0],
        using: 'dense',
        limit: 1,
        withPayload: ['chunkId', 'messageIds'],
      });
      assert.deepEqual(
        hits.map((h) => ({ id: h.id, payload: h.payload })),
        [{ id: 2, payload: { chunkId: 'b', messageIds: '2' } }],
      );
      const lexical = await store.queryPoints(collection, {
        query: { indices: [7], values: [1] },
        using: 'bm25',
        limit: 5,
      });
      assert.deepEqual(ids(lexical), [1], 'only points sharing a term are found');
      const read = await store.retrievePoints(collection, [2, 5]);
      assert.deepEqual(read, [{ id: 2, payload: { chunkId: 'b', messageIds: '2', text: 'y' } }]);
      const query = [0.25, 0.5, 2];
      const cosines = await store.scoreDenseVectors(collection, query, [1, 5]);
      assert.deepEqual(
        [...cosines],
        [['1', computeCosine(query, [1, 0, 0])]],
        "the query's cosine with the dense vector by id; a missing id is left out",
      );
    });

    test('which sparse terms some point holds, within a filter', async () => {
      const collection = target.uniqueCollection('c_held');
      await store.createHybridCollection(collection, 3);
      await store.upsertHybridPoints(collection, [
        { id: 1, dense: [1, 0, 0], sparse: { indices: [7, 9], values: [1, 0.5] }, payload: { chunkId: 'a' } },
        { id: 2, dense: [0, 1, 0], sparse: { indices: [8], values: [1] }, payload: { chunkId: 'b' } },
      ]);
      const held = async (indices: number[], filter?: StoreFilter) =>
        [...(await store.findHeldSparseTerms(collection, indices, filter))].sort((a, b) => a - b);
      assert.deepEqual(await held([7, 8, 9, 10]), [7, 8, 9], 'a term no point has is not held');
      assert.deepEqual(await held([7, 8, 9, 10], { must: [{ key: 'chunkId', match: { value: 'b' } }] }), [8]);
      assert.deepEqual(await held([7], { must: [{ key: 'chunkId', match: { value: 'z' } }] }), []);
      assert.deepEqual(await held([]), []);
    });
  });
}
