/** @module Tests for upsert and delete: body forms, wait statuses, Qdrant's validation (qdrant-subset.md §2). */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openTestApp, type TestApp } from './test-support/open-test-app.js';

describe('point write routes', () => {
  let app: TestApp;
  before(async () => {
    app = openTestApp();
    await app.send('PUT', '/collections/w', { vectors: { size: 3, distance: 'Dot' } });
  });
  after(() => app.close());

  const upsert = (body: unknown, query = '') => app.send('PUT', `/collections/w/points${query}`, body);
  const count = async () => (await app.send('POST', '/collections/w/points/count', {})).json.result.count;

  test('wait=true answers completed, no wait answers acknowledged, with rising operation ids', async () => {
    const first = await upsert({ points: [{ id: 1, vector: [1, 0, 0] }] }, '?wait=true');
    assert.equal(first.json.result.status, 'completed');
    const second = await upsert({ points: [{ id: 2, vectors: [0, 1, 0], payload: { a: 1 } }] });
    assert.equal(second.json.result.status, 'acknowledged');
    assert.ok(second.json.result.operation_id > first.json.result.operation_id);
  });

  test('the batch form and a UUID id are accepted; UUIDs come back lowercase', async () => {
    const uuid = 'A1B2C3D4-0000-4000-8000-000000000001';
    const reply = await upsert(
      {
        batch: {
          ids: [uuid, 3],
          vectors: [
            [0, 0, 1],
            [1, 1, 1],
          ],
          payloads: [{ k: 'x' }, null],
        },
      },
      '?wait=true',
    );
    assert.equal(reply.status, 200);
    const got = await app.send('GET', `/collections/w/points/${uuid}`);
    assert.equal(got.json.result.id, uuid.toLowerCase());
    assert.deepEqual(got.json.result.payload, { k: 'x' });
  });

  test('an empty vector is a 422', async () => {
    const reply = await upsert({ points: [{ id: 9, vector: [] }] });
    assert.equal(reply.status, 422);
    assert.match(
      reply.json.status.error,
      /^Validation error in JSON body: \[.*dense vector must not be empty\]$/,
    );
  });

  test('a wrong dimension is a 400 even without wait', async () => {
    const reply = await upsert({ points: [{ id: 9, vector: [1, 2] }] });
    assert.equal(reply.status, 400);
    assert.equal(reply.json.status.error, 'Wrong input: Vector dimension error: expected dim: 3, got 2');
  });

  test('an object that is neither form is a format error', async () => {
    const reply = await upsert({ ids: [1] });
    assert.equal(reply.status, 400);
    assert.equal(reply.json.status.error, 'Format error in JSON body: Invalid PointInsertOperations format');
  });

  test('a numeric string is not a point id in a body', async () => {
    const reply = await upsert({ points: [{ id: '5', vector: [1, 0, 0] }] });
    assert.equal(reply.status, 400);
    assert.match(reply.json.status.error, /value "5" is not a valid point ID/);
  });

  test('unknown vector names are 400; sparse vectors are validated as Qdrant does; multivectors are refused', async () => {
    const named = await upsert({ points: [{ id: 9, vector: { text: [1, 0, 0] } }] });
    assert.equal(named.json.status.error, 'Wrong input: Not existing vector name error: text');
    const uneven = await upsert({ points: [{ id: 9, vector: { s: { indices: [1, 2], values: [1] } } }] });
    assert.equal(uneven.status, 422);
    assert.equal(
      uneven.json.status.error,
      'Validation error in JSON body: [points[0].vector.?.values: Validation error: must be the same length as indices [{}]]',
    );
    const repeated = await upsert({
      points: [{ id: 9, vector: { s: { indices: [3, 3], values: [1, 2] } } }],
    });
    assert.equal(repeated.status, 422);
    assert.match(
      repeated.json.status.error,
      /points\[0\]\.vector\.\?\.indices: Validation error: must be unique/,
    );
    for (const index of [-1, 4294967296, 1.5]) {
      const outOfRange = await upsert({
        points: [{ id: 9, vector: { s: { indices: [index], values: [1] } } }],
      });
      assert.equal(outOfRange.status, 400, `index ${index}`);
      assert.match(outOfRange.json.status.error, /^Format error in JSON body: /);
    }
    const multi = await upsert({ points: [{ id: 9, vector: [[1, 0, 0]] }] });
    assert.match(multi.json.status.error, /^Bad request: Multivectors is not supported/);
  });

  test('wait only parses true or false', async () => {
    const reply = await upsert({ points: [{ id: 9, vector: [1, 0, 0] }] }, '?wait=yes');
    assert.equal(reply.status, 400);
    assert.match(reply.json.status.error, /^Deserialize error in query parameters: /);
  });

  test('delete by ids ignores missing ids; delete with {} is a 400', async () => {
    await upsert({ points: [{ id: 20, vector: [1, 0, 0] }] }, '?wait=true');
    const before = await count();
    const reply = await app.send('POST', '/collections/w/points/delete?wait=true', { points: [20, 12345] });
    assert.equal(reply.json.result.status, 'completed');
    assert.equal(await count(), before - 1);
    const empty = await app.send('POST', '/collections/w/points/delete', {});
    assert.equal(empty.status, 400);
    assert.match(empty.json.status.error, /^Format error in JSON body: /);
  });

  test('delete by filter removes every matching point', async () => {
    await upsert({ points: [{ id: 30, vector: [1, 0, 0], payload: { tag: 'gone' } }] }, '?wait=true');
    const reply = await app.send('POST', '/collections/w/points/delete?wait=true', {
      filter: { must: [{ key: 'tag', match: { value: 'gone' } }] },
    });
    assert.equal(reply.status, 200);
    assert.equal((await app.send('GET', '/collections/w/points/30')).status, 404);
  });
});
