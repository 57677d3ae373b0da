/**
 * @module Contract: named dense vectors and sparse vectors on one point, their search, `using`, `with_vector`
 * by name, collection info, validation, and the `idf` modifier (qdrant-hybrid.md §1, §2).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertClose, expectError, expectOk } from './expect-envelope.js';
import { upsertPoints } from './seed.js';
import { type ContractTarget, openTarget } from './target.js';

interface Scored {
  id: number | string;
  score: number;
  vector?: unknown;
}

const ids = (points: Scored[]) => points.map((p) => p.id);

/** Qdrant's idf, ln((N − df + 0.5) / (df + 0.5) + 1), computed here independently of the store. */
const idf = (documents: number, frequency: number) =>
  Math.log((documents - frequency + 0.5) / (frequency + 0.5) + 1);

describe('named and sparse vectors', () => {
  let target: ContractTarget;
  let name: string;
  before(async () => {
    target = await openTarget();
    name = target.uniqueCollection('hybrid');
    expectOk(
      await target.http('PUT', `/collections/${name}`, {
        vectors: { dense: { size: 4, distance: 'Cosine' } },
        sparse_vectors: { lexical: { modifier: 'idf' }, plain: {} },
      }),
    );
    // lexical: N = 3 points have it; dimension 1 is in 1 of them, 2 in all 3, 3 in 1.
    await upsertPoints(target, name, [
      {
        id: 1,
        vector: {
          dense: [1, 0, 0, 0],
          lexical: { indices: [2, 1], values: [1, 1] },
          plain: { indices: [2, 1], values: [1, 1] },
        },
        payload: { n: 1 },
      },
      {
        id: 2,
        vector: {
          dense: [0, 1, 0, 0],
          lexical: { indices: [2, 3], values: [1, 1] },
          plain: { indices: [3, 2], values: [1, 1] },
        },
      },
      {
        id: 3,
        vector: {
          dense: [1, 1, 0, 0],
          lexical: { indices: [2], values: [0.5] },
          plain: { indices: [2], values: [0.5] },
        },
      },
      { id: 4, vector: { dense: [0, 0, 1, 0] } },
    ]);
  });
  after(() => target.close());

  const query = async (body: object): Promise<Scored[]> =>
    expectOk(await target.http('POST', `/collections/${name}/points/query`, body)).points;

  test('collection info reports named dense and sparse vectors by name (§1)', async () => {
    const info = expectOk(await target.http('GET', `/collections/${name}`));
    assert.deepEqual(info.config.params.vectors, { dense: { size: 4, distance: 'Cosine' } });
    assert.deepEqual(info.config.params.sparse_vectors, { lexical: { modifier: 'idf' }, plain: {} });
    assert.equal(info.points_count, 4);
    const client = await target.client.getCollection(name);
    assert.deepEqual(client.config.params.vectors, { dense: { size: 4, distance: 'Cosine' } });
  });

  test('a named dense vector is searched with `using` or `{name, vector}`, Cosine-normalized (§1)', async () => {
    const viaQuery = await query({ query: [1, 0, 0, 0], using: 'dense', limit: 2 });
    assert.deepEqual(ids(viaQuery), [1, 3]);
    assertClose(
      viaQuery.map((p) => p.score),
      [1, Math.SQRT1_2],
    );
    const viaSearch: Scored[] = expectOk(
      await target.http('POST', `/collections/${name}/points/search`, {
        vector: { name: 'dense', vector: [0, 2, 0, 0] },
        limit: 1,
      }),
    );
    assert.deepEqual(ids(viaSearch), [2]);
    const viaClient = await target.client.query(name, { query: [0, 0, 1, 0], using: 'dense', limit: 1 });
    assert.equal(viaClient.points[0]?.id, 4);
  });

  test('sparse search is the dot product over shared indices; points sharing none are left out (§2)', async () => {
    const hits = await query({ query: { indices: [1, 2], values: [1, 1] }, using: 'plain' });
    assert.deepEqual(ids(hits), [1, 2, 3]);
    assertClose(
      hits.map((p) => p.score),
      [2, 1, 0.5],
    );
    const viaSearch: Scored[] = expectOk(
      await target.http('POST', `/collections/${name}/points/search`, {
        vector: { name: 'plain', vector: { indices: [3], values: [2] } },
        limit: 10,
      }),
    );
    assert.deepEqual(ids(viaSearch), [2]);
    assertClose([viaSearch[0]?.score as number], [2]);
  });

  test('the idf modifier weighs query terms by the collection document frequencies (§2)', async () => {
    const hits = await query({ query: { indices: [2, 1], values: [1, 1] }, using: 'lexical' });
    assert.deepEqual(ids(hits), [1, 2, 3]);
    assertClose(
      hits.map((p) => p.score),
      [idf(3, 3) + idf(3, 1), idf(3, 3), 0.5 * idf(3, 3)],
    );
  });

  test('query by point id uses that point vector of `using` (§2)', async () => {
    const hits = await query({ query: 1, using: 'plain' });
    assert.deepEqual(ids(hits), [2, 3]);
    assertClose(
      hits.map((p) => p.score),
      [1, 0.5],
    );
  });

  test('with_vector returns every vector by name, sparse indices sorted, or only the names asked for (§1)', async () => {
    const all = expectOk(
      await target.http('POST', `/collections/${name}/points`, { ids: [2], with_vector: true }),
    );
    assert.deepEqual(Object.keys(all[0].vector).sort(), ['dense', 'lexical', 'plain']);
    assert.deepEqual(all[0].vector.plain, { indices: [2, 3], values: [1, 1] });
    assert.deepEqual(all[0].vector.dense, [0, 1, 0, 0]);
    const some = expectOk(
      await target.http('POST', `/collections/${name}/points`, { ids: [3], with_vector: ['dense'] }),
    );
    assert.deepEqual(Object.keys(some[0].vector), ['dense']);
    assertClose(some[0].vector.dense, [Math.SQRT1_2, Math.SQRT1_2, 0, 0]);
  });

  test('has_vector selects points by vector name (§1)', async () => {
    const count = async (vector: string) =>
      expectOk(
        await target.http('POST', `/collections/${name}/points/count`, {
          filter: { must: [{ has_vector: vector }] },
          exact: true,
        }),
      ).count;
    assert.equal(await count('lexical'), 3);
    assert.equal(await count('dense'), 4);
  });

  test('wrong names and dimensions are 400 with Qdrant texts (§1)', async () => {
    const put = (points: unknown[]) =>
      target.http('PUT', `/collections/${name}/points?wait=true`, { points });
    expectError(
      await put([{ id: 9, vector: { dense: [1, 0, 0] } }]),
      400,
      "Wrong input: Vector dimension error: expected dim: 4, got 3 for vector 'dense'",
    );
    expectError(
      await put([{ id: 9, vector: { other: [1, 0, 0, 0] } }]),
      400,
      'Wrong input: Not existing vector name error: other',
    );
    expectError(
      await put([{ id: 9, vector: [1, 0, 0, 0] }]),
      400,
      /^Wrong input: Not existing vector name error: ?/,
    );
    expectError(
      await target.http('POST', `/collections/${name}/points/query`, { query: [1, 0, 0, 0], using: 'nope' }),
      400,
      'Wrong input: Not existing vector name error: nope',
    );
  });

  test('sparse vectors are validated: equal lengths, unique indices, u32 indices (§2)', async () => {
    const put = (vector: unknown) =>
      target.http('PUT', `/collections/${name}/points?wait=true`, { points: [{ id: 9, vector }] });
    const uneven = expectError(
      await put({ plain: { indices: [1, 2], values: [1] } }),
      422,
      /^Validation error/,
    );
    assert.ok(
      uneven.includes('points[0].vector.?.values: Validation error: must be the same length as indices'),
    );
    const repeated = expectError(
      await put({ plain: { indices: [5, 5], values: [1, 2] } }),
      422,
      /^Validation error/,
    );
    assert.ok(repeated.includes('points[0].vector.?.indices: Validation error: must be unique'));
    expectError(await put({ plain: { indices: [-1], values: [1] } }), 400, /^Format error in JSON body: /);
    expectError(
      await put({ plain: { indices: [4294967296], values: [1] } }),
      400,
      /^Format error in JSON body: /,
    );
    assert.equal(
      expectOk(await target.http('POST', `/collections/${name}/points`, { ids: [9] })).length,
      0,
      'a refused point is not written',
    );
  });

  test('dense and sparse names must differ; a sparse name cannot be empty (§1)', async () => {
    const clash = target.uniqueCollection('hybrid_clash');
    expectError(
      await target.http('PUT', `/collections/${clash}`, {
        vectors: { image: { size: 2, distance: 'Euclid' } },
        sparse_vectors: { image: {} },
      }),
      400,
      "Wrong input: Dense and sparse vector names must be unique - duplicate found with 'image'",
    );
  });
  test('a sparse vector with the turbo4 datatype is a 422 and no collection is made', async () => {
    const turbo = target.uniqueCollection('hybrid_turbo4');
    expectError(
      await target.http('PUT', `/collections/${turbo}`, {
        sparse_vectors: { text: { index: { datatype: 'turbo4' } } },
      }),
      422,
      /sparse vectors do not support the `turbo4` datatype/,
    );
    assert.equal(expectOk(await target.http('GET', `/collections/${turbo}/exists`)).exists, false);
  });
});
