/** @module Tests for the payload operations: targets, wait semantics for missing ids (qdrant-subset.md §2). */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openTestApp, type TestApp } from './test-support/open-test-app.js';

describe('payload routes', () => {
  let app: TestApp;
  before(async () => {
    app = openTestApp();
    await app.send('PUT', '/collections/p', { vectors: { size: 2, distance: 'Dot' } });
    await app.send('PUT', '/collections/p/points?wait=true', {
      points: [
        { id: 1, vector: [1, 0], payload: { a: { x: 1 }, b: 2 } },
        { id: 2, vector: [0, 1], payload: { b: 3 } },
      ],
    });
  });
  after(() => app.close());

  const payloadOf = async (id: number) =>
    (await app.send('GET', `/collections/p/points/${id}`)).json.result.payload;

  test('set merges top-level keys shallowly', async () => {
    const reply = await app.send('POST', '/collections/p/points/payload?wait=true', {
      payload: { a: { y: 1 } },
      points: [1],
    });
    assert.equal(reply.json.result.status, 'completed');
    assert.deepEqual(await payloadOf(1), { a: { y: 1 }, b: 2 });
  });

  test('neither points nor filter is a 400', async () => {
    const reply = await app.send('POST', '/collections/p/points/payload', { payload: { c: 1 } });
    assert.equal(reply.status, 400);
    assert.match(reply.json.status.error, /Either list of point ids or filter must be provided/);
  });

  test('a missing id with wait=true is a 404, yet the existing ids are changed', async () => {
    const reply = await app.send('POST', '/collections/p/points/payload?wait=true', {
      payload: { seen: true },
      points: [2, 999],
    });
    assert.equal(reply.status, 404);
    assert.equal(reply.json.status.error, 'Not found: No point with id 999 found');
    assert.equal((await payloadOf(2)).seen, true);
    const noWait = await app.send('POST', '/collections/p/points/payload', {
      payload: { z: 1 },
      points: [999],
    });
    assert.equal(noWait.status, 200);
    assert.equal(noWait.json.result.status, 'acknowledged');
  });

  test('overwrite, delete keys and clear', async () => {
    await app.send('PUT', '/collections/p/points/payload?wait=true', {
      payload: { only: 1, drop: 2 },
      points: [1],
    });
    assert.deepEqual(await payloadOf(1), { only: 1, drop: 2 });
    await app.send('POST', '/collections/p/points/payload/delete?wait=true', { keys: ['drop'], points: [1] });
    assert.deepEqual(await payloadOf(1), { only: 1 });
    await app.send('POST', '/collections/p/points/payload/clear?wait=true', {
      filter: { must: [{ key: 'only', match: { value: 1 } }] },
    });
    assert.deepEqual(await payloadOf(1), {});
  });

  test('an invalid key path is rejected', async () => {
    const reply = await app.send('POST', '/collections/p/points/payload/delete', {
      keys: ['my key'],
      points: [1],
    });
    assert.equal(reply.status, 400);
    assert.match(reply.json.status.error, /Invalid json path/);
  });
});
