/**
 * @module Contract: what `with_vector` returns for a point without vectors (`"vector": {}`) and for a name the
 * collection lacks (400), on every read that takes it: GET point, retrieve, scroll, query (issue 37, items 3 and 4).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectError, expectOk } from './expect-envelope.js';
import { upsertPoints } from './seed.js';
import { type ContractTarget, openTarget } from './target.js';

describe('with_vector selection', () => {
  let target: ContractTarget;
  let name: string;
  before(async () => {
    target = await openTarget();
    name = target.uniqueCollection('vsel');
    expectOk(
      await target.http('PUT', `/collections/${name}`, {
        vectors: { image: { size: 2, distance: 'Dot' }, text: { size: 2, distance: 'Dot' } },
      }),
    );
    await upsertPoints(target, name, [
      { id: 1, vector: {}, payload: { n: 1 } },
      { id: 2, vector: { image: [1, 0] }, payload: { n: 2 } },
    ]);
  });
  after(() => target.close());

  test('a point without vectors reads as `"vector": {}` wherever vectors are asked for', async () => {
    const got = expectOk(await target.http('GET', `/collections/${name}/points/1`));
    assert.deepEqual(got.vector, {});
    const retrieved = expectOk(
      await target.http('POST', `/collections/${name}/points`, { ids: [1], with_vector: true }),
    );
    assert.deepEqual(retrieved[0].vector, {});
    const scrolled = expectOk(
      await target.http('POST', `/collections/${name}/points/scroll`, { with_vector: true }),
    );
    assert.deepEqual(scrolled.points[0].vector, {});
    const queried = expectOk(
      await target.http('POST', `/collections/${name}/points/query`, { with_vector: ['text'] }),
    );
    assert.deepEqual(
      queried.points.map((p: { vector: unknown }) => p.vector),
      [{}, {}],
    );
  });

  test('an unknown name in with_vector is a 400 naming it', async () => {
    const message = 'Wrong input: Not existing vector name error: audio';
    const body = { with_vector: ['image', 'audio'] };
    expectError(
      await target.http('POST', `/collections/${name}/points`, { ids: [1], ...body }),
      400,
      message,
    );
    expectError(await target.http('POST', `/collections/${name}/points/scroll`, body), 400, message);
    expectError(await target.http('POST', `/collections/${name}/points/query`, body), 400, message);
  });
});
