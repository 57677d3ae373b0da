/** @module Contract: POST /points/search and /points/query, ordering, thresholds, prefetch (qdrant-subset.md §3). */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertClose, expectClientError, expectError, expectOk } from './expect-envelope.js';
import { seedCollection } from './seed.js';
import { type ContractTarget, openTarget } from './target.js';

interface Scored {
  id: number | string;
  score: number;
  version: number;
  payload?: unknown;
  vector?: unknown;
}

const ids = (points: Scored[]) => points.map((p) => p.id);

describe('search-and-query', () => {
  let target: ContractTarget;
  let cosine: string;
  let dot: string;
  let euclid: string;
  let manhattan: string;
  let mixed: string;
  before(async () => {
    target = await openTarget();
    cosine = await seedCollection(target, 'sq_cos', [
      { id: 1, vector: [1, 0, 0, 0], payload: { odd: true } },
      { id: 2, vector: [1, 1, 0, 0], payload: { odd: false } },
      { id: 3, vector: [1, 1, 1, 0], payload: { odd: true } },
      { id: 4, vector: [0, 1, 0, 0], payload: { odd: false } },
      { id: 5, vector: [-1, 0, 0, 0], payload: { odd: true } },
    ]);
    // Integer vectors give exact f32 scores, so a threshold can sit exactly on a score.
    const line = [1, 2, 3, 4].map((k) => ({ id: k, vector: [k, 0, 0, 0] }));
    dot = await seedCollection(target, 'sq_dot', line, 4, 'Dot');
    euclid = await seedCollection(target, 'sq_euc', line, 4, 'Euclid');
    manhattan = await seedCollection(target, 'sq_man', line, 4, 'Manhattan');
    // id k has [k, 9-k]: ranking by x reverses ranking by y, so rescoring is visible.
    const points = [1, 2, 3, 4, 5, 6, 7, 8].map((k) => ({
      id: k,
      vector: [k, 9 - k, 0, 0],
      payload: { even: k % 2 === 0 },
    }));
    mixed = await seedCollection(target, 'sq_mixed', points, 4, 'Dot');
  });
  after(() => target.close());

  const search = async (name: string, body: object): Promise<Scored[]> =>
    expectOk(await target.http('POST', `/collections/${name}/points/search`, body));
  const query = async (name: string, body: object): Promise<Scored[]> => {
    const result = expectOk(await target.http('POST', `/collections/${name}/points/query`, body));
    assert.deepEqual(Object.keys(result), ['points']);
    return result.points;
  };

  test('Cosine search orders by similarity and scores cosines; result is a bare array (§3 search)', async () => {
    const hits = await search(cosine, { vector: [2, 0, 0, 0], limit: 10 });
    assert.deepEqual(ids(hits), [1, 2, 3, 4, 5]);
    assertClose(
      hits.map((h) => h.score),
      [1, Math.SQRT1_2, 1 / Math.sqrt(3), 0, -1],
    );
    for (const hit of hits) {
      assert.equal(typeof hit.version, 'number');
      assert.ok(!('payload' in hit) && !('vector' in hit), 'search defaults to no payload and no vector');
    }
  });

  test('Dot orders descending; Euclid and Manhattan ascending by distance (§3 search)', async () => {
    assert.deepEqual(ids(await search(dot, { vector: [1, 0, 0, 0], limit: 4 })), [4, 3, 2, 1]);
    const near = await search(euclid, { vector: [0, 0, 0, 0], limit: 4 });
    assert.deepEqual(ids(near), [1, 2, 3, 4]);
    assertClose(
      near.map((h) => h.score),
      [1, 2, 3, 4],
    );
    const euclidScores = await search(euclid, { vector: [1, 1, 0, 0], limit: 1 });
    assertClose([euclidScores[0]?.score as number], [1]);
    const taxi = await search(manhattan, { vector: [0, 1, 1, 0], limit: 4 });
    assert.deepEqual(ids(taxi), [1, 2, 3, 4]);
    assertClose(
      taxi.map((h) => h.score),
      [3, 4, 5, 6],
    );
  });

  test('score_threshold is strict: > for Dot, < for Euclid (§3 search)', async () => {
    assert.deepEqual(ids(await search(dot, { vector: [1, 0, 0, 0], limit: 10, score_threshold: 2 })), [4, 3]);
    assert.deepEqual(
      ids(await search(euclid, { vector: [0, 0, 0, 0], limit: 10, score_threshold: 3 })),
      [1, 2],
    );
    const viaClient = await target.client.search(dot, {
      vector: [1, 0, 0, 0],
      limit: 10,
      score_threshold: 3.5,
    });
    assert.deepEqual(ids(viaClient as Scored[]), [4]);
  });

  test('offset skips the best hits; the filter applies before the limit (§3 search, §4.5)', async () => {
    assert.deepEqual(ids(await search(dot, { vector: [1, 0, 0, 0], limit: 2, offset: 1 })), [3, 2]);
    const filter = { must: [{ key: 'odd', match: { value: false } }] };
    const hits = await search(cosine, { vector: [1, 0, 0, 0], limit: 2, filter, with_payload: true });
    assert.deepEqual(ids(hits), [2, 4]);
    assert.deepEqual(hits[0]?.payload, { odd: false });
  });

  test('search returns vectors when asked and via qdrant-js (§3)', async () => {
    const [hit] = await search(dot, {
      vector: [1, 0, 0, 0],
      limit: 1,
      with_vector: true,
      with_payload: true,
    });
    assert.deepEqual(hit?.vector, [4, 0, 0, 0]);
    assert.deepEqual(hit?.payload, {});
    const viaClient = await target.client.search(cosine, {
      vector: [0, 1, 0, 0],
      limit: 1,
      with_payload: true,
    });
    assert.equal(viaClient[0]?.id, 4);
  });

  test('search with a wrong dimension is 400; limit 0 is 422; no limit is 400 (§0.2, §3)', async () => {
    expectError(
      await target.http('POST', `/collections/${dot}/points/search`, { vector: [1, 0, 0], limit: 1 }),
      400,
      'Wrong input: Vector dimension error: expected dim: 4, got 3',
    );
    expectError(
      await target.http('POST', `/collections/${dot}/points/search`, { vector: [1, 0, 0, 0], limit: 0 }),
      422,
      'Validation error in JSON body: [search_request.limit: value 0 invalid, must be 1 or larger]',
    );
    expectError(
      await target.http('POST', `/collections/${dot}/points/search`, { vector: [1, 0, 0, 0] }),
      400,
      /^Format error in JSON body: /,
    );
  });

  test('query by vector and by {nearest} give the same points (§3 query)', async () => {
    const plain = await query(dot, { query: [1, 0, 0, 0], limit: 3 });
    assert.deepEqual(ids(plain), [4, 3, 2]);
    assert.deepEqual(await query(dot, { query: { nearest: [1, 0, 0, 0] }, limit: 3 }), plain);
    const viaClient = await target.client.query(dot, { query: [1, 0, 0, 0], limit: 3 });
    assert.deepEqual(ids(viaClient.points as Scored[]), [4, 3, 2]);
    assert.deepEqual(ids(await query(dot, { query: [1, 0, 0, 0], limit: 10, score_threshold: 2 })), [4, 3]);
  });

  test('query by point id uses its stored vector and leaves that point out (§3 query)', async () => {
    assert.deepEqual(ids(await query(cosine, { query: 1, limit: 10 })), [2, 3, 4, 5]);
    assert.deepEqual(ids(await query(cosine, { query: { nearest: 4 }, limit: 2 })), [2, 3]);
    expectError(
      await target.http('POST', `/collections/${cosine}/points/query`, { query: 99, limit: 2 }),
      404,
      /^Not found: Vector with name "" for point .*not found$/,
    );
  });

  test('query without a query lists by id with score 1, honoring offset and the default limit 10 (§3 query)', async () => {
    const many = await seedCollection(
      target,
      'sq_scroll',
      Array.from({ length: 12 }, (_, i) => ({ id: 12 - i, vector: [1, 0, 0, 0] })),
    );
    const all = await query(many, {});
    assert.deepEqual(ids(all), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    for (const p of all) assert.equal(p.score, 1);
    assert.deepEqual(ids(await query(many, { offset: 1, limit: 3 })), [2, 3, 4]);
    assert.deepEqual(ids(await query(many, { filter: { must: [{ has_id: [9, 3, 11] }] } })), [3, 9, 11]);
  });

  test('the root filter narrows every prefetch, and the root query rescores their union (§3 prefetch)', async () => {
    const body = {
      prefetch: { query: [1, 0, 0, 0], limit: 3 },
      query: [0, 1, 0, 0],
      filter: { must: [{ key: 'even', match: { value: true } }] },
      limit: 2,
    };
    // Prefetch top 3 by x among even ids is {8, 6, 4}; rescored by y that gives 4 then 6.
    assert.deepEqual(ids(await query(mixed, body)), [4, 6]);
    const same = await query(mixed, { prefetch: [{ limit: 1000 }], query: [0, 1, 0, 0], limit: 3 });
    assert.deepEqual(ids(same), ids(await query(mixed, { query: [0, 1, 0, 0], limit: 3 })));
  });

  test('rrf fuses prefetch ranks with 1/(rank+2) (§3 prefetch)', async () => {
    const body = {
      prefetch: [
        { query: [1, 0, 0, 0], limit: 2 },
        { query: [0, 1, 0, 0], limit: 2 },
      ],
      query: { fusion: 'rrf' },
    };
    // By x the top two are 8 then 7; by y they are 1 then 2. Tie order is not part of the contract.
    const fused = await query(mixed, body);
    const byId = Object.fromEntries(fused.map((p) => [p.id, p.score]));
    assert.deepEqual(Object.keys(byId).sort(), ['1', '2', '7', '8']);
    assertClose([byId[8], byId[1], byId[7], byId[2]] as number[], [0.5, 0.5, 1 / 3, 1 / 3]);
    for (let i = 1; i < fused.length; i++)
      assert.ok((fused[i - 1] as Scored).score >= (fused[i] as Scored).score);
  });

  test('query validation: limit 0 is 422, prefetch or score_threshold without query is 400 (§3 query)', async () => {
    const url = `/collections/${dot}/points/query`;
    expectError(
      await target.http('POST', url, { query: [1, 0, 0, 0], limit: 0 }),
      422,
      'Validation error in JSON body: [internal.limit: value 0 invalid, must be 1 or larger]',
    );
    expectError(
      await target.http('POST', url, { prefetch: { query: [1, 0, 0, 0] } }),
      400,
      "Bad request: A query is needed to merge the prefetches. Can't have prefetches without defining a query.",
    );
    expectError(
      await target.http('POST', url, { score_threshold: 0.5 }),
      400,
      "Bad request: A query is needed to use the score_threshold. Can't have score_threshold without defining a query.",
    );
    await expectClientError(
      target.client.query(dot, { query: [1, 0], limit: 1 }),
      400,
      'Wrong input: Vector dimension error: expected dim: 4, got 2',
    );
  });

  test('query/batch answers one {points} per search (§3 query)', async () => {
    const url = `/collections/${dot}/points/query/batch`;
    const result = expectOk(
      await target.http('POST', url, { searches: [{ query: [1, 0, 0, 0], limit: 1 }, { limit: 2 }] }),
    );
    assert.equal(result.length, 2);
    assert.deepEqual(ids(result[0].points), [4]);
    assert.deepEqual(ids(result[1].points), [1, 2]);
    assert.deepEqual(expectOk(await target.http('POST', url, { searches: [] })), []);
  });
});
