/** @module Contract: upsert, point ids, vector storage and delete (qdrant-subset.md §2). */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertClose, expectClientError, expectError, expectOk } from './expect-envelope.js';
import { createCollection, eventually, seedCollection, upsertPoints } from './seed.js';
import { type ContractTarget, openTarget } from './target.js';

describe('points-write', () => {
  let target: ContractTarget;
  before(async () => {
    target = await openTarget();
  });
  after(() => target.close());

  /** Reads one point with payload and vector through the retrieve route. */
  async function readPoint(name: string, id: number | string) {
    const body = { ids: [id], with_payload: true, with_vector: true };
    const found = expectOk(await target.http('POST', `/collections/${name}/points`, body));
    return found[0];
  }

  test('upsert with wait=true completes and without wait is acknowledged, operation_id rising (§2)', async () => {
    const name = await createCollection(target, 'w_status');
    const first = expectOk(
      await target.http('PUT', `/collections/${name}/points?wait=true`, {
        points: [{ id: 1, vector: [1, 0, 0, 0] }],
      }),
    );
    assert.equal(first.status, 'completed');
    assert.equal(typeof first.operation_id, 'number');
    const second = expectOk(
      await target.http('PUT', `/collections/${name}/points`, { points: [{ id: 2, vector: [0, 1, 0, 0] }] }),
    );
    assert.equal(second.status, 'acknowledged');
    assert.ok(second.operation_id > first.operation_id, 'operation_id must rise');
    const viaClient = await target.client.upsert(name, { points: [{ id: 3, vector: [0, 0, 1, 0] }] });
    assert.equal(viaClient.status, 'completed');
    assert.ok((viaClient.operation_id as number) > second.operation_id);
    await eventually(async () => assert.equal((await target.client.count(name)).count, 3));
  });

  test('the batch body form writes ids, vectors and payloads (§2)', async () => {
    const name = await createCollection(target, 'w_batch', 4, 'Dot');
    const batch = {
      ids: [10, 11],
      vectors: [
        [1, 2, 3, 4],
        [4, 3, 2, 1],
      ],
      payloads: [{ a: 1 }, { b: 'x' }],
    };
    expectOk(await target.http('PUT', `/collections/${name}/points?wait=true`, { batch }));
    assert.deepEqual(await readPoint(name, 10), { id: 10, payload: { a: 1 }, vector: [1, 2, 3, 4] });
    assert.deepEqual(await readPoint(name, 11), { id: 11, payload: { b: 'x' }, vector: [4, 3, 2, 1] });
    await target.client.upsert(name, { batch: { ids: [12], vectors: [[0, 0, 0, 1]] } });
    assert.deepEqual(await readPoint(name, 12), { id: 12, payload: {}, vector: [0, 0, 0, 1] });
  });

  test('`vectors` is accepted as an alias of `vector` (§2)', async () => {
    const name = await createCollection(target, 'w_alias', 4, 'Dot');
    const body = { points: [{ id: 1, vectors: [1, 2, 3, 4] }] };
    expectOk(await target.http('PUT', `/collections/${name}/points?wait=true`, body));
    assert.deepEqual((await readPoint(name, 1)).vector, [1, 2, 3, 4]);
  });

  test('upsert replaces the whole point: no payload or {} clears the old one (§2)', async () => {
    const name = await seedCollection(target, 'w_replace', [
      { id: 1, vector: [1, 0, 0, 0], payload: { a: 1, b: 2 } },
      { id: 2, vector: [1, 0, 0, 0], payload: { a: 1 } },
    ]);
    await upsertPoints(target, name, [
      { id: 1, vector: [0, 1, 0, 0] },
      { id: 2, vector: [0, 1, 0, 0], payload: {} },
    ]);
    const one = await readPoint(name, 1);
    assert.deepEqual(one.payload, {});
    assertClose(one.vector, [0, 1, 0, 0]);
    assert.deepEqual((await readPoint(name, 2)).payload, {});
    await upsertPoints(target, name, [
      { id: 1, vector: [0, 1, 0, 0], payload: { c: [1, 'two', null, { d: true }] } },
    ]);
    assert.deepEqual((await readPoint(name, 1)).payload, { c: [1, 'two', null, { d: true }] });
  });

  test('the last of duplicate ids in one request wins (§2)', async () => {
    const name = await seedCollection(target, 'w_dups', [
      { id: 7, vector: [1, 0, 0, 0], payload: { v: 'first' } },
      { id: 7, vector: [0, 0, 1, 0], payload: { v: 'last' } },
    ]);
    assert.equal((await target.client.count(name)).count, 1);
    const seven = await readPoint(name, 7);
    assert.deepEqual(seven.payload, { v: 'last' });
    assertClose(seven.vector, [0, 0, 1, 0]);
  });

  test('a wrong dimension is 400 with the exact text, for wait=true and wait=false, and writes nothing (§0.2)', async () => {
    const name = await seedCollection(target, 'w_dim', [{ id: 1, vector: [1, 0, 0, 0] }]);
    for (const query of ['?wait=true', '?wait=false', '']) {
      const reply = await target.http('PUT', `/collections/${name}/points${query}`, {
        points: [
          { id: 2, vector: [1, 0, 0, 0] },
          { id: 3, vector: [1, 0, 0] },
        ],
      });
      expectError(reply, 400, 'Wrong input: Vector dimension error: expected dim: 4, got 3');
    }
    await expectClientError(
      target.client.upsert(name, { points: [{ id: 4, vector: [1, 2, 3, 4, 5] }] }),
      400,
      'Wrong input: Vector dimension error: expected dim: 4, got 5',
    );
    assert.equal((await target.client.count(name)).count, 1);
  });

  test('an empty vector is 422 (§2)', async () => {
    const name = await createCollection(target, 'w_empty');
    const reply = await target.http('PUT', `/collections/${name}/points?wait=true`, {
      points: [{ id: 1, vector: [] }],
    });
    expectError(reply, 422, /^Validation error in JSON body: .*dense vector must not be empty/);
  });

  test('ids that are not u64 or UUID are 400: "5", -1, 1.5 (§2)', async () => {
    const name = await createCollection(target, 'w_badid');
    for (const id of ['5', -1, 1.5, 'not-a-uuid']) {
      const reply = await target.http('PUT', `/collections/${name}/points?wait=true`, {
        points: [{ id, vector: [1, 0, 0, 0] }],
      });
      expectError(
        reply,
        400,
        /is not a valid point ID, valid values are either an unsigned integer or a UUID/,
      );
    }
    assert.equal((await target.client.count(name)).count, 0);
  });

  test('UUID ids in every accepted form are one id, output lowercase and hyphenated (§2)', async () => {
    const canonical = 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d';
    const forms = [
      canonical.toUpperCase(),
      canonical.replaceAll('-', ''),
      `{${canonical}}`,
      `urn:uuid:${canonical.toUpperCase()}`,
    ];
    const name = await createCollection(target, 'w_uuid');
    for (const [i, id] of forms.entries())
      await upsertPoints(target, name, [{ id, vector: [1, 0, 0, 0], payload: { i } }]);
    assert.equal((await target.client.count(name)).count, 1);
    for (const form of [...forms, canonical]) assert.deepEqual((await readPoint(name, form)).id, canonical);
    assert.deepEqual((await readPoint(name, canonical)).payload, { i: 3 });
    const viaPath = expectOk(
      await target.http('GET', `/collections/${name}/points/${canonical.toUpperCase()}`),
    );
    assert.equal(viaPath.id, canonical);
  });

  test('Cosine vectors are stored normalized: [2,6,7,8] (§2 Cosine storage)', async () => {
    const name = await seedCollection(target, 'w_cos', [
      { id: 1, vector: [2, 6, 7, 8] },
      { id: 2, vector: [0, 0, 0, 0] },
    ]);
    assertClose((await readPoint(name, 1)).vector, [0.16169041, 0.48507124, 0.5659165, 0.64676166]);
    assertClose((await readPoint(name, 2)).vector, [0, 0, 0, 0]);
    const [viaClient] = await target.client.retrieve(name, { ids: [1], with_vector: true });
    assertClose(viaClient?.vector as number[], [0.16169041, 0.48507124, 0.5659165, 0.64676166]);
  });

  test('Dot and Euclid vectors round-trip in shortest f32 form: 0.31 stays 0.31 (§2)', async () => {
    for (const distance of ['Dot', 'Euclid'] as const) {
      const vector = [0.31, -1.5, 2.7, 0.1];
      const name = await seedCollection(
        target,
        `w_${distance.toLowerCase()}`,
        [{ id: 1, vector }],
        4,
        distance,
      );
      assert.deepEqual((await readPoint(name, 1)).vector, vector);
      const raw = await target.http('GET', `/collections/${name}/points/1`);
      assert.match(raw.text, /\[0\.31,-1\.5,2\.7,0\.1\]/);
    }
  });

  test('delete by ids ignores missing ids; delete by filter removes every match (§2)', async () => {
    const points = [1, 2, 3, 4, 5].map((id) => ({
      id,
      vector: [1, id, 0, 0],
      payload: { even: id % 2 === 0 },
    }));
    const name = await seedCollection(target, 'w_delete', points);
    const byIds = await target.http('POST', `/collections/${name}/points/delete?wait=true`, {
      points: [1, 99],
    });
    assert.equal(expectOk(byIds).status, 'completed');
    const filter = { must: [{ key: 'even', match: { value: true } }] };
    expectOk(await target.http('POST', `/collections/${name}/points/delete?wait=true`, { filter }));
    const left = await target.client.scroll(name, { limit: 10 });
    assert.deepEqual(
      left.points.map((p) => p.id),
      [3, 5],
    );
    await target.client.delete(name, { wait: true, points: [3] });
    assert.deepEqual(
      (await target.client.scroll(name)).points.map((p) => p.id),
      [5],
    );
  });

  test('delete with an empty body is 400 (§2)', async () => {
    const name = await seedCollection(target, 'w_delete_empty', [{ id: 1, vector: [1, 0, 0, 0] }]);
    const reply = await target.http('POST', `/collections/${name}/points/delete?wait=true`, {});
    assert.equal(reply.status, 400);
    assert.match(reply.json.status.error, /^Format error in JSON body: /);
    assert.equal((await target.client.count(name)).count, 1);
  });

  test('an upsert body that is neither form is 400 (§2)', async () => {
    const name = await createCollection(target, 'w_shape');
    const reply = await target.http('PUT', `/collections/${name}/points?wait=true`, { foo: 1 });
    expectError(reply, 400, /^Format error in JSON body: Invalid PointInsertOperations format/);
  });

  test('upserting into a missing collection is 404 (§0.2)', async () => {
    const name = target.uniqueCollection('w_missing');
    const reply = await target.http('PUT', `/collections/${name}/points?wait=true`, {
      points: [{ id: 1, vector: [1, 0, 0, 0] }],
    });
    expectError(reply, 404, `Not found: Collection \`${name}\` doesn't exist!`);
  });
});
