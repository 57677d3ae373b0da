/**
 * @module Contract: server-side MMR, `query: {nearest, mmr: {diversity, candidates_limit}}` (Qdrant's
 * `lib/shard/src/query/mmr/mod.rs`), as LangChain's `maxMarginalRelevanceSearch` sends it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectError, expectOk } from './expect-envelope.js';
import { createCollection, upsertPoints } from './seed.js';
import { type ContractTarget, openTarget } from './target.js';

interface Scored {
  id: number;
  score: number;
  vector?: unknown;
}

// Unit vectors at 0°, 10°, 60° and 90°; the query points at 20°. Nearest order: 2, 1, 3, 4. With λ = 0.5, MMR
// takes 2, then 4 (far from 2, 0.084) over 1 (too close to 2, −0.023), then 1 (−0.023) over 3 (−0.050).
const QUERY = [0.939693, 0.34202];

describe('MMR query', () => {
  let target: ContractTarget;
  let name: string;
  const query = async (body: Record<string, unknown>): Promise<Scored[]> =>
    expectOk(await target.http('POST', `/collections/${name}/points/query`, body)).points;
  before(async () => {
    target = await openTarget();
    name = await createCollection(target, 'mmr', 2, 'Cosine');
    await upsertPoints(target, name, [
      { id: 1, vector: [1, 0], payload: { kind: 'a' } },
      { id: 2, vector: [0.984808, 0.173648], payload: { kind: 'a' } },
      { id: 3, vector: [0.5, 0.866025], payload: { kind: 'b' } },
      { id: 4, vector: [0, 1], payload: { kind: 'b' } },
    ]);
  });
  after(() => target.close());

  test('picks relevant but diverse points, each keeping its similarity score', async () => {
    const hits = await query({
      query: { nearest: QUERY, mmr: { diversity: 0.5, candidates_limit: 4 } },
      limit: 3,
    });
    assert.deepEqual(
      hits.map((h) => h.id),
      [2, 4, 1],
    );
    assert.ok(Math.abs((hits[0] as Scored).score - 0.984808) < 1e-4);
    assert.ok(Math.abs((hits[1] as Scored).score - 0.34202) < 1e-4);
    assert.equal((hits[0] as Scored).vector, undefined);
  });

  test('diversity 0 is the nearest order; candidates_limit bounds the pool; offset skips after MMR', async () => {
    const relevant = await query({
      query: { nearest: QUERY, mmr: { diversity: 0, candidates_limit: 4 } },
      limit: 3,
    });
    assert.deepEqual(
      relevant.map((h) => h.id),
      [2, 1, 3],
    );
    // Only the 2 nearest are candidates, so 4 cannot be picked.
    const pool = await query({ query: { nearest: QUERY, mmr: { candidates_limit: 2 } }, limit: 3 });
    assert.deepEqual(
      pool.map((h) => h.id),
      [2, 1],
    );
    const skipped = await query({
      query: { nearest: QUERY, mmr: { diversity: 0.5, candidates_limit: 4 } },
      limit: 3,
      offset: 1,
    });
    assert.deepEqual(
      skipped.map((h) => h.id),
      [4, 1],
    );
  });

  test('the filter and with_vector apply as for a nearest query', async () => {
    const hits = await query({
      query: { nearest: QUERY, mmr: { diversity: 0.5 } },
      filter: { must: [{ key: 'kind', match: { value: 'b' } }] },
      limit: 2,
      with_vector: true,
    });
    assert.deepEqual(
      hits.map((h) => h.id),
      [3, 4],
    );
    assert.equal(Array.isArray((hits[0] as Scored).vector), true);
  });

  test('diversity outside [0, 1] is a 422 naming it', async () => {
    expectError(
      await target.http('POST', `/collections/${name}/points/query`, {
        query: { nearest: QUERY, mmr: { diversity: 1.5 } },
      }),
      422,
      /mmr\.diversity: value 1\.5 invalid, must be from 0\.0 to 1\.0/,
    );
  });
});
