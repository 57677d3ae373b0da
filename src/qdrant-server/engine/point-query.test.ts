import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CollectionEngine, QueryRequest } from './engine-api.js';
import { createTestCollection, filter, openTestStore, read } from './engine-test-kit.js';

function tenPoints(): CollectionEngine {
  const { store } = openTestStore();
  const c = createTestCollection(store, 'q', 2, 'Dot');
  c.upsert(
    [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((i) => ({ id: i, vector: [i, 10 - i], payload: { low: i <= 5 } })),
  );
  return c;
}

function query(c: CollectionEngine, request: Partial<QueryRequest>) {
  return c.query({ ...read(), prefetch: [], limit: 10, offset: 0, ...request });
}

const ids = (hits: { id: unknown }[]) => hits.map((h) => h.id);

describe('query', () => {
  test('nearest vector query matches search', () => {
    const c = tenPoints();
    const hits = query(c, { query: { kind: 'nearest', vector: [1, 0] }, limit: 3 });
    assert.deepEqual(ids(hits), [10, 9, 8]);
    assert.deepEqual(ids(hits), ids(c.search({ ...read(), vector: [1, 0], limit: 3, offset: 0 })));
  });

  test('a point-id query uses its stored vector and leaves that point out', () => {
    const c = tenPoints();
    assert.deepEqual(ids(query(c, { query: { kind: 'point', id: 10 }, limit: 2 })), [9, 8]);
    assert.throws(() => query(c, { query: { kind: 'point', id: 99 } }), {
      status: 404,
      message: 'Not found: Vector with name "" for point not found',
    });
  });

  test('no query and no prefetch lists by id with score 1 and version 0, honouring offset and filter', () => {
    const c = tenPoints();
    const hits = query(c, {
      offset: 1,
      limit: 3,
      filter: filter({ must: [{ key: 'low', match: { value: true } }] }),
    });
    assert.deepEqual(
      hits.map((h) => [h.id, h.score, h.version]),
      [
        [2, 1, 0],
        [3, 1, 0],
        [4, 1, 0],
      ],
    );
  });

  test('the root query scores only the prefetched points; the root filter narrows every prefetch', () => {
    const c = tenPoints();
    const hits = query(c, {
      query: { kind: 'nearest', vector: [1, 0] },
      prefetch: [{ query: { kind: 'nearest', vector: [0, 1] }, prefetch: [], limit: 3 }],
    });
    // The prefetch picks 1, 2, 3 (nearest to [0,1]); the root re-ranks them by [1,0].
    assert.deepEqual(ids(hits), [3, 2, 1]);
    const filtered = query(c, {
      query: { kind: 'nearest', vector: [1, 0] },
      filter: filter({ must: [{ key: 'low', match: { value: false } }] }),
      prefetch: [{ query: { kind: 'nearest', vector: [0, 1] }, prefetch: [], limit: 3 }],
    });
    assert.deepEqual(ids(filtered), [8, 7, 6]);
  });

  test('a single unscored prefetch over everything gives the plain query result', () => {
    const c = tenPoints();
    const plain = query(c, { query: { kind: 'nearest', vector: [2, 1] }, limit: 4 });
    const viaPrefetch = query(c, {
      query: { kind: 'nearest', vector: [2, 1] },
      limit: 4,
      prefetch: [{ prefetch: [], limit: 1000 }],
    });
    assert.deepEqual(viaPrefetch, plain);
  });

  test('RRF fuses prefetch ranks with k = 2 and an inclusive threshold', () => {
    const c = tenPoints();
    const prefetch = [
      { query: { kind: 'nearest', vector: [1, 0] }, prefetch: [], limit: 2 } as const,
      { query: { kind: 'nearest', vector: [0, 1] }, prefetch: [], limit: 2 } as const,
      { query: { kind: 'nearest', vector: [1, 0.01] }, prefetch: [], limit: 1 } as const,
    ];
    const hits = query(c, { query: { kind: 'rrf', k: 2 }, prefetch: [...prefetch] });
    // 10 is first twice: 1/2 + 1/2 = 1; 1 is first once: 1/2; 9 and 2 are second once: 1/3.
    assert.deepEqual(
      hits.map((h) => [h.id, h.score]),
      [
        [10, 1],
        [1, 0.5],
        [2, Math.fround(1 / 3)],
        [9, Math.fround(1 / 3)],
      ],
    );
    const cut = query(c, { query: { kind: 'rrf', k: 2 }, prefetch: [...prefetch], scoreThreshold: 0.5 });
    assert.deepEqual(ids(cut), [10, 1]);
  });

  test('rejects a threshold or prefetch without a query, and DBSF', () => {
    const c = tenPoints();
    assert.throws(() => query(c, { scoreThreshold: 1 }), /A query is needed to use the score_threshold/);
    assert.throws(
      () => query(c, { prefetch: [{ prefetch: [], limit: 1 }] }),
      /A query is needed to merge the prefetches/,
    );
    assert.throws(
      () => query(c, { query: { kind: 'dbsf' }, prefetch: [{ prefetch: [], limit: 1 }] }),
      /not supported by memory-pool's embedded store/,
    );
  });
});
