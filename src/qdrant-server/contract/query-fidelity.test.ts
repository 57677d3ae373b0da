/**
 * @module Contract: answers the embedded store once gave differently from Qdrant v1.19.0 (issue 26 item 3): the
 * dimension message of a named vector, fusion with `using`, the prefetch limits and the rounds of `points/query/groups`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectError, expectOk } from './expect-envelope.js';
import { seedCollection, upsertPoints } from './seed.js';
import { type ContractTarget, openTarget } from './target.js';

interface Scored {
  id: number | string;
  score: number;
}

describe('query fidelity', () => {
  let target: ContractTarget;
  let name: string;
  before(async () => {
    target = await openTarget();
    name = target.uniqueCollection('fidelity');
    expectOk(
      await target.http('PUT', `/collections/${name}`, {
        vectors: { dense: { size: 3, distance: 'Cosine' } },
      }),
    );
    // Near [1, 0, 0] in this order: 1, 4, 2, 3. Point 4 has no group; 3 is the only point of group g2.
    await upsertPoints(target, name, [
      { id: 1, vector: { dense: [1, 0, 0] }, payload: { group: 'g1' } },
      { id: 2, vector: { dense: [0.9, 0.1, 0] }, payload: { group: 'g1' } },
      { id: 3, vector: { dense: [0, 1, 0] }, payload: { group: 'g2' } },
      { id: 4, vector: { dense: [0.95, 0.05, 0] }, payload: { other: true } },
    ]);
  });
  after(() => target.close());

  const query = (body: unknown) => target.http('POST', `/collections/${name}/points/query`, body);

  test('a named vector of the wrong size: no vector name in a query or search, the name at upsert', async () => {
    // `check_vector_against_config` (lib/segment/src/common/mod.rs) reports searches without the name.
    const message = 'Wrong input: Vector dimension error: expected dim: 3, got 2';
    expectError(await query({ query: [1, 0], using: 'dense' }), 400, message);
    expectError(await query({ query: { nearest: [1, 0] }, using: 'dense' }), 400, message);
    expectError(
      await query({ prefetch: { query: [1, 0], using: 'dense' }, query: { fusion: 'rrf' } }),
      400,
      message,
    );
    expectError(
      await target.http('POST', `/collections/${name}/points/search`, {
        vector: { name: 'dense', vector: [1, 0] },
        limit: 1,
      }),
      400,
      message,
    );
    // Upserts are checked first by `src/common/validate_vectors.rs`, which names the vector (since 1.18.1).
    expectError(
      await target.http('PUT', `/collections/${name}/points?wait=true`, {
        points: [{ id: 9, vector: { dense: [1, 0] } }],
      }),
      400,
      `${message} for vector 'dense'`,
    );
  });

  test('a fusion query with `using` is 400 (collection_query.rs validation)', async () => {
    const message = "Bad request: Fusion queries cannot be combined with the 'using' field.";
    const prefetch = [{ query: [1, 0, 0], using: 'dense' }];
    expectError(await query({ prefetch, query: { fusion: 'rrf' }, using: 'dense' }), 400, message);
    expectError(await query({ prefetch, query: { fusion: 'dbsf' }, using: 'dense' }), 400, message);
    expectError(await query({ prefetch, query: { rrf: { k: 3 } }, using: 'dense' }), 400, message);
    // A prefetch is validated the same way.
    expectError(
      await query({
        prefetch: { prefetch, query: { fusion: 'rrf' }, using: 'dense' },
        query: { fusion: 'rrf' },
      }),
      400,
      message,
    );
    // The default name `""` is no vector name.
    expectOk(await query({ prefetch, query: { fusion: 'rrf' }, using: '' }));
  });

  test('query/groups scales prefetch limits by group_size and skips points without the key', async () => {
    // Qdrant's `shape_candidates_query` (lib/shard/src/grouping/mod.rs): the prefetch's limit 1 becomes 3,
    // and point 4 (no group) is filtered out before fusion, so point 2 ranks second in the prefetch.
    const result = expectOk(
      await target.http('POST', `/collections/${name}/points/query/groups`, {
        prefetch: { query: [1, 0, 0], using: 'dense', limit: 1 },
        query: { fusion: 'rrf' },
        group_by: 'group',
        group_size: 3,
        limit: 1,
      }),
    );
    assert.deepEqual(
      result.groups.map((group: { id: string; hits: Scored[] }) => [
        group.id,
        group.hits.map((hit) => [hit.id, hit.score]),
      ]),
      [
        [
          'g1',
          [
            [1, 1 / 2],
            // 1/3 as Qdrant prints an f32: its shortest round-trip form.
            [2, 0.33333334],
          ],
        ],
      ],
    );
  });
  test('query/groups runs later rounds as Qdrant does: full groups and collected points left out of every prefetch', async () => {
    // Qdrant's GroupByDriver (lib/shard/src/grouping/driver.rs): each later round narrows the root filter, which
    // reaches every prefetch, instead of raising the root's limit, so group b is found past group a's points.
    const points = [
      ...Array.from({ length: 10 }, (_, i) => ({ id: i + 1, vector: [1, (i + 1) * 0.01], payload: { g: 'a' } })),
      ...Array.from({ length: 5 }, (_, i) => ({ id: i + 11, vector: [1, 0.5 + (i + 1) * 0.01], payload: { g: 'b' } })),
    ];
    const groupsOf = async (body: unknown) => {
      const name = await seedCollection(target, 'fidelity-rounds', points, 2);
      const result = expectOk(await target.http('POST', `/collections/${name}/points/query/groups`, body));
      return result.groups.map((group: { id: string; hits: Scored[] }) => [group.id, group.hits.map((hit) => hit.id)]);
    };
    const fused = await groupsOf({
      prefetch: [{ query: [1, 0], limit: 2 }],
      query: { fusion: 'rrf' },
      group_by: 'g',
      group_size: 2,
      limit: 2,
    });
    // Both groups' best hits rank first in their round (RRF 1/2): Qdrant's order between them is a tie.
    assert.deepEqual([...fused].sort(), [
      ['a', [1, 2]],
      ['b', [11, 12]],
    ]);
    const rescored = await groupsOf({
      prefetch: [{ query: [1, 0], limit: 1 }],
      query: [1, 0],
      group_by: 'g',
      group_size: 1,
      limit: 3,
    });
    assert.deepEqual(rescored, [
      ['a', [1]],
      ['b', [11]],
    ]);
  });
  test('a prefetch with score_threshold but no query is 400, as at the root (collection_query.rs validation)', async () => {
    const message =
      "Bad request: A query is needed to use the score_threshold. Can't have score_threshold without defining a query.";
    expectError(await query({ score_threshold: 0.5 }), 400, message);
    expectError(await query({ prefetch: { score_threshold: 0.5 }, query: { fusion: 'rrf' } }), 400, message);
    expectError(
      await query({
        prefetch: { prefetch: [{ query: [1, 0, 0], using: 'dense' }, { score_threshold: 0.5 }], query: { fusion: 'rrf' } },
        query: { fusion: 'rrf' },
      }),
      400,
      message,
    );
    // With a query, a prefetch's threshold is fine.
    expectOk(await query({ prefetch: { query: [1, 0, 0], using: 'dense', score_threshold: 0.5 }, query: { fusion: 'rrf' } }));
  });
});
