/**
 * @module Contract: the Query API over named dense and sparse vectors: nested prefetches with their own `using`,
 * filter, limit and threshold; RRF and DBSF fusion scores; order_by, random sample and groups (qdrant-hybrid.md §3).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertClose, expectError, expectOk } from './expect-envelope.js';
import { upsertPoints } from './seed.js';
import { type ContractTarget, openTarget } from './target.js';

interface Scored {
  id: number | string;
  score: number;
  version: number;
  payload?: Record<string, unknown>;
  vector?: unknown;
  order_value?: number;
}

const ids = (points: Scored[]) => points.map((p) => p.id);
const scores = (points: Scored[]) => Object.fromEntries(points.map((p) => [p.id, p.score]));

/** Qdrant's DBSF normalization (mean ± 3 sample deviations), computed here independently of the store. */
function dbsf(values: number[]): number[] {
  if (values.length < 2) return values.map(() => 0.5);
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const deviation = Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / (values.length - 1));
  const [min, max] = [mean - 3 * deviation, mean + 3 * deviation];
  return values.map((v) => (min === max ? 0.5 : (v - min) / (max - min)));
}

describe('hybrid query', () => {
  let target: ContractTarget;
  let name: string;
  before(async () => {
    target = await openTarget();
    name = target.uniqueCollection('hq');
    expectOk(
      await target.http('PUT', `/collections/${name}`, {
        vectors: { dense: { size: 2, distance: 'Dot' } },
        sparse_vectors: { lexical: {} },
      }),
    );
    // dense scores by [1, 0] are k; lexical scores by {7: 1} are 9 - k for the points that have dimension 7.
    await upsertPoints(
      target,
      name,
      [1, 2, 3, 4, 5, 6, 7, 8].map((k) => ({
        id: k,
        vector: {
          dense: [k, 1],
          ...(k <= 6 ? { lexical: { indices: [7, 100 + k], values: [9 - k, 1] } } : {}),
        },
        payload: { k, even: k % 2 === 0, group: k <= 4 ? 'low' : 'high' },
      })),
    );
    expectOk(
      await target.http('PUT', `/collections/${name}/index?wait=true`, {
        field_name: 'k',
        field_schema: 'integer',
      }),
    );
  });
  after(() => target.close());

  const query = async (body: object): Promise<Scored[]> =>
    expectOk(await target.http('POST', `/collections/${name}/points/query`, body)).points;

  const dense = { query: [1, 0], using: 'dense' };
  const lexical = { query: { indices: [7], values: [1] }, using: 'lexical' };

  test('rrf fuses a dense and a sparse prefetch by rank: 1/(rank + 2) summed (§3.2)', async () => {
    const fused = await query({
      prefetch: [
        { ...dense, limit: 3 },
        { ...lexical, limit: 3 },
      ],
      query: { fusion: 'rrf' },
    });
    // dense ranks 8, 7, 6; lexical ranks 1, 2, 3.
    const s = scores(fused);
    assert.deepEqual(Object.keys(s).sort(), ['1', '2', '3', '6', '7', '8']);
    assertClose([s[8], s[1], s[7], s[2], s[6], s[3]] as number[], [1 / 2, 1 / 2, 1 / 3, 1 / 3, 1 / 4, 1 / 4]);
    const viaClient = await target.client.query(name, {
      prefetch: [
        { ...dense, limit: 3 },
        { ...lexical, limit: 3 },
      ],
      query: { rrf: { k: 10 } },
      limit: 2,
    });
    assertClose(
      viaClient.points.map((p) => p.score),
      [1 / 10, 1 / 10],
    );
  });

  test('rrf refuses k = 0 (validated as 1 or larger) and weights that are not one per prefetch (§3.2)', async () => {
    const prefetch = [
      { ...dense, limit: 3 },
      { ...lexical, limit: 3 },
    ];
    const zeroK = await target.http('POST', `/collections/${name}/points/query`, {
      prefetch,
      query: { rrf: { k: 0 } },
    });
    assert.equal(zeroK.status, 422);
    const weights = await target.http('POST', `/collections/${name}/points/query`, {
      prefetch,
      query: { rrf: { weights: [1] } },
    });
    assert.equal(weights.status, 400);
    assert.match(JSON.stringify(weights.json), /Number of weights in RRF should match number of pre-fetches/);
  });

  test('a point in both lists sums its ranks; root limit, offset and an inclusive threshold apply (§3.2)', async () => {
    const body = {
      prefetch: [
        { ...dense, limit: 4, filter: { must: [{ key: 'k', range: { lte: 5 } }] } },
        { ...lexical, limit: 4 },
      ],
      query: { fusion: 'rrf' },
    };
    // dense among k <= 5: 5, 4, 3, 2; lexical: 1, 2, 3, 4. 4 and 3 and 2 are in both lists.
    const s = scores(await query(body));
    assertClose([s[4], s[3], s[5], s[2], s[1]] as number[], [
      1 / 3 + 1 / 5,
      1 / 4 + 1 / 4,
      1 / 2,
      1 / 5 + 1 / 3,
      1 / 2,
    ]);
    const page = await query({ ...body, limit: 2, offset: 1 });
    assert.equal(page.length, 2);
    const cut = await query({ ...body, score_threshold: 0.5 });
    assert.deepEqual(ids(cut).sort(), [1, 2, 3, 4, 5]);
    const strictlyAbove = await query({ ...body, score_threshold: 0.51 });
    assert.deepEqual(ids(strictlyAbove).sort(), [2, 4]);
  });

  test('dbsf normalizes each list with mean ± 3 standard deviations and sums (§3.3)', async () => {
    const fused = await query({
      prefetch: [
        { ...dense, limit: 3 },
        { ...lexical, limit: 2 },
      ],
      query: { fusion: 'dbsf' },
    });
    const [d8, d7, d6] = dbsf([8, 7, 6]);
    const [l1, l2] = dbsf([8, 7]);
    const s = scores(fused);
    assertClose([s[8], s[7], s[6], s[1], s[2]] as number[], [d8, d7, d6, l1, l2] as number[]);
    for (let i = 1; i < fused.length; i++)
      assert.ok((fused[i - 1] as Scored).score >= (fused[i] as Scored).score);
  });

  test('nested prefetches each use their own vector, filter, limit and threshold; the root filter narrows all (§3.1)', async () => {
    const fused = await query({
      prefetch: [
        {
          prefetch: [{ ...lexical, limit: 5, score_threshold: 4.5 }],
          query: [0, 1],
          using: 'dense',
          limit: 10,
        },
        { ...dense, limit: 2 },
      ],
      query: { fusion: 'rrf' },
      filter: { must: [{ key: 'even', match: { value: true } }] },
      with_payload: ['k'],
    });
    // Inner lexical: even points scoring > 4.5 are 2 (7) and 4 (5); rescored by [0, 1] they tie at 1.
    // Dense among even points: 8, 6.
    assert.deepEqual(ids(fused).sort(), [2, 4, 6, 8]);
    for (const point of fused) assert.deepEqual(point.payload, { k: point.id });
  });

  test('a sparse root query rescores a dense prefetch, returning vectors by name (§3.1)', async () => {
    const hits = await query({
      prefetch: { ...dense, limit: 4 },
      ...lexical,
      with_vector: ['lexical'],
    });
    // Dense top 4 is 8, 7, 6, 5; only 6 and 5 have the sparse vector.
    assert.deepEqual(ids(hits), [5, 6]);
    assertClose(
      hits.map((p) => p.score),
      [4, 3],
    );
    assert.deepEqual(hits[0]?.vector, { lexical: { indices: [7, 105], values: [4, 1] } });
  });

  test('query/batch runs hybrid queries side by side (§3)', async () => {
    const result = expectOk(
      await target.http('POST', `/collections/${name}/points/query/batch`, {
        searches: [
          { ...dense, limit: 1 },
          { ...lexical, limit: 1 },
          { prefetch: [{ ...dense }, { ...lexical }], query: { fusion: 'rrf' }, limit: 2 },
        ],
      }),
    );
    assert.deepEqual(ids(result[0].points), [8]);
    assert.deepEqual(ids(result[1].points), [1]);
    assert.deepEqual(ids(result[2].points).sort(), [1, 8]);
  });

  test('order_by as a query orders by a range-indexed key and reports order_value (§3.4)', async () => {
    const hits = await query({ query: { order_by: { key: 'k', direction: 'desc' } }, limit: 3 });
    assert.deepEqual(ids(hits), [8, 7, 6]);
    assert.deepEqual(
      hits.map((p) => p.order_value),
      [8, 7, 6],
    );
    const rescored = await query({ prefetch: { ...lexical, limit: 3 }, query: { order_by: 'k' } });
    assert.deepEqual(ids(rescored), [1, 2, 3]);
    expectError(
      await target.http('POST', `/collections/${name}/points/query`, {
        query: { order_by: 'k' },
        score_threshold: 1,
      }),
      400,
      "Bad request: Can't use score_threshold with an order_by query.",
    );
  });

  test('sample: random returns distinct points that pass the filter (§3.4)', async () => {
    const hits = await query({
      query: { sample: 'random' },
      limit: 3,
      filter: { must: [{ key: 'group', match: { value: 'low' } }] },
    });
    assert.equal(hits.length, 3);
    assert.equal(new Set(ids(hits)).size, 3);
    for (const id of ids(hits)) assert.ok((id as number) <= 4);
  });

  test('query/groups groups hits by a payload key, best group first, group_size hits each (§3.5)', async () => {
    const result = expectOk(
      await target.http('POST', `/collections/${name}/points/query/groups`, {
        ...dense,
        group_by: 'group',
        group_size: 2,
        limit: 2,
        with_payload: true,
      }),
    );
    assert.deepEqual(
      result.groups.map((group: { id: string; hits: Scored[] }) => [group.id, ids(group.hits)]),
      [
        ['high', [8, 7]],
        ['low', [4, 3]],
      ],
    );
    assert.equal(result.groups[0].hits[0].payload.group, 'high');
    const viaClient = await target.client.queryGroups(name, {
      ...lexical,
      group_by: 'group',
      group_size: 1,
      limit: 1,
    });
    assert.deepEqual(
      viaClient.groups.map((group) => [group.id, group.hits.map((hit) => hit.id)]),
      [['low', [1]]],
    );
  });
});
