/**
 * @module Contract: editing some vectors of existing points, `PUT /points/vectors` and `POST /points/vectors/delete`
 * (Qdrant's `lib/shard/src/update/vectors.rs`; tests/openapi/test_optional_vectors.py).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertClose, expectError, expectOk } from './expect-envelope.js';
import { upsertPoints } from './seed.js';
import { type ContractTarget, openTarget } from './target.js';

describe('vector edits', () => {
  let target: ContractTarget;
  let name: string;
  const read = async (id: number) => expectOk(await target.http('GET', `/collections/${name}/points/${id}`));
  before(async () => {
    target = await openTarget();
    name = target.uniqueCollection('vedit');
    expectOk(
      await target.http('PUT', `/collections/${name}`, {
        vectors: { image: { size: 2, distance: 'Dot' }, text: { size: 3, distance: 'Dot' } },
        sparse_vectors: { words: {} },
      }),
    );
    await upsertPoints(target, name, [
      { id: 1, vector: { image: [1, 2] }, payload: { city: 'Berlin' } },
      { id: 2, vector: { image: [3, 4], text: [1, 1, 1] }, payload: { city: 'Paris' } },
      { id: 3, vector: { text: [2, 2, 2] }, payload: { city: 'Rome' } },
    ]);
  });
  after(() => target.close());

  test('an update sets the named vectors and keeps the others and the payload', async () => {
    expectOk(
      await target.http('PUT', `/collections/${name}/points/vectors?wait=true`, {
        points: [
          { id: 1, vector: { text: [0.5, 0.25, 1] } },
          { id: 1, vector: { words: { indices: [7], values: [2] } } },
        ],
      }),
    );
    const point = await read(1);
    assertClose(point.vector.image, [1, 2]);
    assertClose(point.vector.text, [0.5, 0.25, 1]);
    assert.deepEqual(point.vector.words, { indices: [7], values: [2] });
    assert.deepEqual(point.payload, { city: 'Berlin' });
    const hits = expectOk(
      await target.http('POST', `/collections/${name}/points/query`, { query: [1, 0, 0], using: 'text' }),
    );
    assert.deepEqual(
      hits.points.map((p: { id: number }) => p.id),
      [3, 2, 1],
    );
  });

  test('an unknown point is a 404 naming it; an empty vector map is a 422', async () => {
    expectError(
      await target.http('PUT', `/collections/${name}/points/vectors?wait=true`, {
        points: [{ id: 424242, vector: { image: [1, 1] } }],
      }),
      404,
      'Not found: No point with id 424242 found',
    );
    expectError(
      await target.http('PUT', `/collections/${name}/points/vectors?wait=true`, {
        points: [{ id: 1, vector: {} }],
      }),
      422,
      /points\[0\]\.vector: must specify vectors to update for point/,
    );
    expectError(
      await target.http('PUT', `/collections/${name}/points/vectors?wait=true`, {
        points: [{ id: 1, vector: { unknown: { indices: [0, 1], values: [0] } } }],
      }),
      422,
      /^Validation error in JSON body: .*must be the same length as indices/,
    );
    expectError(
      await target.http('PUT', `/collections/${name}/points/vectors?wait=true`, {
        points: [{ id: 1, vector: { image: [1, 1, 1] } }],
      }),
      400,
      /^Wrong input: Vector dimension error: expected dim: 2, got 3/,
    );
  });

  test('a delete drops the named vectors, by ids or by filter', async () => {
    expectOk(
      await target.http('POST', `/collections/${name}/points/vectors/delete?wait=true`, {
        points: [2],
        vector: ['image'],
      }),
    );
    const two = await read(2);
    assert.equal(two.vector.image, undefined);
    assertClose(two.vector.text, [1, 1, 1]);
    assert.deepEqual(two.payload, { city: 'Paris' });
    expectOk(
      await target.http('POST', `/collections/${name}/points/vectors/delete?wait=true`, {
        filter: { must: [{ key: 'city', match: { value: 'Rome' } }] },
        vector: ['text'],
      }),
    );
    assert.deepEqual((await read(3)).vector, {});
    const count = expectOk(
      await target.http('POST', `/collections/${name}/points/count`, {
        filter: { must: [{ has_vector: 'text' }] },
      }),
    );
    assert.equal(count.count, 2);
  });

  test('deleting an unknown vector name is a 400 naming it', async () => {
    expectError(
      await target.http('POST', `/collections/${name}/points/vectors/delete?wait=true`, {
        points: [1],
        vector: ['a'],
      }),
      400,
      'Wrong input: Not existing vector name error: a',
    );
  });
});
