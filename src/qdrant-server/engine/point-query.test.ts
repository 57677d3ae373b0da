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
  test('a point deleted or rewritten while the prefetches ran is left out, never scored from a freed slot', async () => {
    const c = tenPoints();
    const realNow = performance.now.bind(performance);
    let skew = 0;
    // Every slice is due at once, so the query hands the event loop back before each search (a busy store).
    performance.now = () => {
      skew += 10;
      return realNow() + skew;
    };
    try {
      const running = query(c, {
        query: { kind: 'nearest', vector: [1, 0] },
        prefetch: [
          { query: { kind: 'nearest', vector: [1, 0] }, prefetch: [], limit: 10 },
          { query: { kind: 'nearest', vector: [0, 1] }, prefetch: [], limit: 10 },
        ],
      });
      // Two turns: the first prefetch has searched, the second waits for its slice.
      for (let turn = 0; turn < 2; turn++) await new Promise(setImmediate);
      c.upsert([{ id: 2, vector: [3, 7], payload: { low: true } }]);
      c.deletePoints({ ids: [3] });
      const hits = await running;
      assert.ok(
        hits.every((hit) => typeof hit.score === 'number' && Number.isFinite(hit.score)),
        JSON.stringify(hits.map((hit) => [hit.id, hit.score])),
      );
      assert.ok(!ids(hits).includes(3), 'the deleted point is not returned');
      const two = hits.find((hit) => hit.id === 2);
      assert.ok(
        two === undefined || two.score === 3,
        'the rewritten point, if returned, is scored as it is now',
      );
    } finally {
      performance.now = realNow;
    }
  });

  test('nearest vector query matches search', async () => {
    const c = tenPoints();
    const hits = await query(c, { query: { kind: 'nearest', vector: [1, 0] }, limit: 3 });
    assert.deepEqual(ids(hits), [10, 9, 8]);
    assert.deepEqual(ids(hits), ids(await c.search({ ...read(), vector: [1, 0], limit: 3, offset: 0 })));
  });

  test('a point-id query uses its stored vector and leaves that point out', async () => {
    const c = tenPoints();
    assert.deepEqual(ids(await query(c, { query: { kind: 'point', id: 10 }, limit: 2 })), [9, 8]);
    await assert.rejects(async () => await query(c, { query: { kind: 'point', id: 99 } }), {
      status: 404,
      message: 'Not found: Vector with name "" for point not found',
    });
  });

  test('no query and no prefetch lists by id with score 1 and version 0, honoring offset and filter', async () => {
    const c = tenPoints();
    const hits = await query(c, {
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

  test('the root query scores only the prefetched points; the root filter narrows every prefetch', async () => {
    const c = tenPoints();
    const hits = await query(c, {
      query: { kind: 'nearest', vector: [1, 0] },
      prefetch: [{ query: { kind: 'nearest', vector: [0, 1] }, prefetch: [], limit: 3 }],
    });
    // The prefetch picks 1, 2, 3 (nearest to [0,1]); the root re-ranks them by [1,0].
    assert.deepEqual(ids(hits), [3, 2, 1]);
    const filtered = await query(c, {
      query: { kind: 'nearest', vector: [1, 0] },
      filter: filter({ must: [{ key: 'low', match: { value: false } }] }),
      prefetch: [{ query: { kind: 'nearest', vector: [0, 1] }, prefetch: [], limit: 3 }],
    });
    assert.deepEqual(ids(filtered), [8, 7, 6]);
  });

  test('a single unscored prefetch over everything gives the plain query result', async () => {
    const c = tenPoints();
    const plain = await query(c, { query: { kind: 'nearest', vector: [2, 1] }, limit: 4 });
    const viaPrefetch = await query(c, {
      query: { kind: 'nearest', vector: [2, 1] },
      limit: 4,
      prefetch: [{ prefetch: [], limit: 1000 }],
    });
    assert.deepEqual(viaPrefetch, plain);
  });

  test('RRF fuses prefetch ranks with k = 2 and an inclusive threshold', async () => {
    const c = tenPoints();
    const prefetch = [
      { query: { kind: 'nearest', vector: [1, 0] }, prefetch: [], limit: 2 } as const,
      { query: { kind: 'nearest', vector: [0, 1] }, prefetch: [], limit: 2 } as const,
      { query: { kind: 'nearest', vector: [1, 0.01] }, prefetch: [], limit: 1 } as const,
    ];
    const hits = await query(c, { query: { kind: 'rrf', k: 2 }, prefetch: [...prefetch] });
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
    const cut = await query(c, {
      query: { kind: 'rrf', k: 2 },
      prefetch: [...prefetch],
      scoreThreshold: 0.5,
    });
    assert.deepEqual(ids(cut), [10, 1]);
  });

  test('rejects a threshold or prefetch without a query, and a threshold on order_by', async () => {
    const c = tenPoints();
    await assert.rejects(
      async () => await query(c, { scoreThreshold: 1 }),
      /A query is needed to use the score_threshold/,
    );
    await assert.rejects(
      async () => await query(c, { prefetch: [{ prefetch: [], limit: 1 }] }),
      /A query is needed to merge the prefetches/,
    );
    c.createIndex('n', { type: 'integer' });
    await assert.rejects(
      async () =>
        await query(c, {
          query: { kind: 'order_by', orderBy: { key: 'n', direction: 'asc' } },
          scoreThreshold: 1,
        }),
      { status: 400, message: "Bad request: Can't use score_threshold with an order_by query." },
    );
  });

  test('DBSF maps each list to mean ± 3 sample deviations and sums per point', async () => {
    const c = tenPoints();
    // Scores by [1, 0] are the ids themselves; by [0, 1] they are 10 - id.
    const hits = await query(c, {
      query: { kind: 'dbsf' },
      prefetch: [
        { query: { kind: 'nearest', vector: [1, 0] }, prefetch: [], limit: 3 },
        { query: { kind: 'nearest', vector: [0, 1] }, prefetch: [], limit: 2 },
      ],
    });
    // List one: 10, 9, 8 (mean 9, deviation 1, so [6, 12]); list two: 9 for id 1, 8 for id 2 (mean 8.5,
    // deviation sqrt(0.5), so 8.5 ± 3·0.7071).
    const span = 3 * Math.sqrt(0.5);
    const expected: Record<number, number> = {
      10: (10 - 6) / 6,
      9: (9 - 6) / 6,
      8: (8 - 6) / 6,
      1: (9 - (8.5 - span)) / (2 * span),
      2: (8 - (8.5 - span)) / (2 * span),
    };
    assert.deepEqual(ids(hits), [10, 1, 9, 2, 8]);
    for (const hit of hits) assert.ok(Math.abs(hit.score - (expected[hit.id as number] as number)) < 1e-6);
  });

  test("RRF over an order_by prefetch keeps each point's first hit: version 0 and its order value", async () => {
    const c = tenPoints();
    c.upsert([{ id: 11, vector: [1, 1], payload: { n: 5 } }]);
    c.createIndex('n', { type: 'integer' });
    const hits = await query(c, {
      prefetch: [
        { query: { kind: 'order_by', orderBy: { key: 'n', direction: 'desc' } }, prefetch: [], limit: 1 },
        { query: { kind: 'nearest', vector: [1, 0] }, prefetch: [], limit: 1 },
      ],
      query: { kind: 'rrf', k: 2 },
    });
    const fromOrderBy = hits.find((h) => h.id === 11);
    assert.equal(fromOrderBy?.version, 0);
    assert.equal(fromOrderBy?.order_value, 5);
    assert.ok(Math.abs((fromOrderBy?.score ?? 0) - 0.5) < 1e-6, 'the fused score, not the scroll 1');
  });

  test('order_by as a query orders by the indexed key with score 1, version 0 and the order value', async () => {
    const c = tenPoints();
    c.upsert([{ id: 11, vector: [1, 1], payload: { n: 5 } }]);
    c.upsert([{ id: 12, vector: [1, 1], payload: { n: -3 } }]);
    c.createIndex('n', { type: 'integer' });
    const hits = await query(c, { query: { kind: 'order_by', orderBy: { key: 'n', direction: 'desc' } } });
    assert.deepEqual(
      hits.map((h) => [h.id, h.score, h.version, h.order_value]),
      [
        [11, 1, 0, 5],
        [12, 1, 0, -3],
      ],
    );
    await assert.rejects(
      async () => await query(c, { query: { kind: 'order_by', orderBy: { key: 'low', direction: 'asc' } } }),
      {
        status: 400,
        message: /^Wrong input: No range index for `order_by` key: `low`/,
      },
    );
  });

  test('a random sample returns distinct points passing the filter, at most limit', async () => {
    const c = tenPoints();
    const seen = new Set<unknown>();
    for (let round = 0; round < 20; round++) {
      const hits = await query(c, {
        query: { kind: 'sample' },
        limit: 3,
        filter: filter({ must: [{ key: 'low', match: { value: true } }] }),
      });
      assert.equal(new Set(ids(hits)).size, 3);
      for (const hit of hits) {
        assert.ok((hit.id as number) <= 5);
        seen.add(hit.id);
      }
    }
    // Twenty draws of 3 from 5 points reach all 5 except with probability below 1e-8.
    assert.equal(seen.size, 5);
  });

  test('groups take the best groups by their best hit, each with its best group_size hits', async () => {
    const c = tenPoints();
    c.upsert([
      { id: 1, vector: [1, 9], payload: { g: 'odd' } },
      { id: 2, vector: [2, 8], payload: { g: ['even', 2] } },
      { id: 3, vector: [3, 7], payload: { g: 'odd' } },
      { id: 4, vector: [4, 6], payload: { g: 'even' } },
      { id: 5, vector: [5, 5], payload: { g: 'odd' } },
      { id: 6, vector: [6, 4], payload: { g: [true, 'even'] } },
      { id: 7, vector: [7, 3], payload: { g: 1.5 } },
    ]);
    const groups = await c.queryGroups({
      ...read(),
      query: { kind: 'nearest', vector: [1, 0] },
      prefetch: [],
      limit: 2,
      groupBy: 'g',
      groupSize: 2,
    });
    // By x the order is 10..1; 6 (a bool in its values) and 7 (a float) join no group, nor do 8-10 (no key).
    assert.deepEqual(
      groups.map((group) => [group.id, group.hits.map((hit) => hit.id)]),
      [
        ['odd', [5, 3]],
        ['even', [4, 2]],
      ],
    );
  });

  test('a query with more than 16 stages (prefetches nested or not) is a 400 naming the bound', async () => {
    const c = tenPoints();
    const leaf = { prefetch: [], query: { kind: 'nearest' as const, vector: [1, 0] }, limit: 5 };
    const fused = (prefetch: unknown[]) => ({ query: { kind: 'rrf' as const, k: 2 }, prefetch }) as never;
    // 1 root + 15 prefetches = 16 stages: allowed.
    const fifteen = [{ ...leaf, prefetch: Array.from({ length: 14 }, () => leaf) }];
    assert.ok((await query(c, fused(fifteen))).length > 0);
    const nested = [{ ...leaf, prefetch: Array.from({ length: 15 }, () => leaf) }];
    await assert.rejects(async () => query(c, fused(nested)), {
      status: 400,
      message: /at most 16 stages .* this one has 17/,
    });
  });
});
