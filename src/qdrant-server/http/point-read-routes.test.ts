/** @module Tests for the read routes: defaults, result shapes, f32 output and Qdrant's request validation (§3). */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openTestApp, type TestApp } from './test-support/open-test-app.js';

describe('point read routes', () => {
  let app: TestApp;
  const points = [
    { id: 1, vector: [0.31, 0.1, 0.05], payload: { city: 'Berlin' } },
    { id: 2, vector: [0.1, 0.9, 0.2], payload: { city: 'London' } },
    { id: 3, vector: [0.2, 0.2, 0.9] },
  ];
  before(async () => {
    app = openTestApp();
    await app.send('PUT', '/collections/r', { vectors: { size: 3, distance: 'Dot' } });
    await app.send('PUT', '/collections/r/points?wait=true', { points });
  });
  after(() => app.close());

  const post = (path: string, body: unknown) => app.send('POST', `/collections/r/points${path}`, body);

  test('vectors come back in shortest f32 form (0.31, not 0.3100000023841858)', async () => {
    const reply = await app.send('GET', '/collections/r/points/1');
    assert.match(reply.text, /"vector":\[0\.31,0\.1,0\.05\]/);
    assert.deepEqual(reply.json.result, points[0]);
  });

  test('GET by id: 404 when missing, 400 when the id does not parse', async () => {
    const missing = await app.send('GET', '/collections/r/points/7');
    assert.equal(missing.status, 404);
    assert.equal(missing.json.status.error, 'Not found: Point with id 7 does not exists!');
    const bad = await app.send('GET', '/collections/r/points/abc');
    assert.equal(bad.status, 400);
    assert.equal(bad.json.status.error, 'Wrong input: Can not recognize "abc" as point id');
  });

  test('retrieve defaults to no payload and no vector, in request order, skipping missing ids', async () => {
    const reply = await post('', { ids: [3, 99, 1] });
    assert.deepEqual(reply.json.result, [{ id: 3 }, { id: 1 }]);
    const withPayload = await post('', { ids: [2], with_payload: true, with_vectors: true });
    assert.deepEqual(withPayload.json.result, [points[1]]);
  });

  test('search returns a bare array of scored points, best first', async () => {
    const reply = await post('/search', { vector: [1, 0, 0], limit: 2, with_payload: true });
    assert.equal(reply.status, 200);
    assert.deepEqual(
      reply.json.result.map((p: { id: number }) => p.id),
      [1, 3],
    );
    const [best] = reply.json.result;
    assert.equal(best.score, 0.31);
    assert.deepEqual(best.payload, { city: 'Berlin' });
    assert.equal(best.vector, undefined);
    assert.equal(typeof best.version, 'number');
  });

  test('search without limit is a 400; limit 0 is a 422 at search_request.limit', async () => {
    const missing = await post('/search', { vector: [1, 0, 0] });
    assert.equal(missing.status, 400);
    assert.match(missing.json.status.error, /^Format error in JSON body: missing field `limit`/);
    const zero = await post('/search', { vector: [1, 0, 0], limit: 0 });
    assert.equal(zero.status, 422);
    assert.equal(
      zero.json.status.error,
      'Validation error in JSON body: [search_request.limit: value 0 invalid, must be 1 or larger]',
    );
  });

  test('search/batch answers one array per search', async () => {
    const reply = await post('/search/batch', {
      searches: [
        { vector: [1, 0, 0], limit: 1 },
        { vector: [0, 1, 0], limit: 1 },
      ],
    });
    assert.deepEqual(
      reply.json.result.map((hits: { id: number }[]) => hits.map((h) => h.id)),
      [[1], [2]],
    );
  });

  test('query by vector and by point id; the referenced point is left out', async () => {
    const byVector = await post('/query', { query: [0, 1, 0], limit: 1 });
    assert.deepEqual(
      byVector.json.result.points.map((p: { id: number }) => p.id),
      [2],
    );
    const byId = await post('/query', { query: { nearest: 2 } });
    assert.ok(!byId.json.result.points.some((p: { id: number }) => p.id === 2));
  });

  test('query validation follows Qdrant', async () => {
    const zero = await post('/query', { query: [1, 0, 0], limit: 0 });
    assert.equal(zero.status, 422);
    assert.equal(
      zero.json.status.error,
      'Validation error in JSON body: [internal.limit: value 0 invalid, must be 1 or larger]',
    );
    const prefetchOnly = await post('/query', { prefetch: { query: [1, 0, 0] } });
    assert.equal(prefetchOnly.status, 400);
    assert.equal(
      prefetchOnly.json.status.error,
      "Bad request: A query is needed to merge the prefetches. Can't have prefetches without defining a query.",
    );
    const threshold = await post('/query', { score_threshold: 0.5 });
    assert.match(threshold.json.status.error, /^Bad request: A query is needed to use the score_threshold/);
    const named = await post('/query', { query: [1, 0, 0], using: 'text' });
    assert.equal(named.json.status.error, 'Wrong input: Not existing vector name error: text');
  });

  test('query without a query lists points in id order with score 1', async () => {
    const reply = await post('/query', { offset: 1 });
    assert.deepEqual(
      reply.json.result.points.map((p: { id: number; score: number }) => [p.id, p.score]),
      [
        [2, 1],
        [3, 1],
      ],
    );
  });

  test('query/batch answers one {points} per request', async () => {
    const reply = await post('/query/batch', { searches: [{ query: [1, 0, 0], limit: 1 }, {}] });
    assert.equal(reply.json.result.length, 2);
    assert.deepEqual(
      reply.json.result[0].points.map((p: { id: number }) => p.id),
      [1],
    );
  });

  test('scroll defaults to payload on, pages with an inclusive offset', async () => {
    const first = await post('/scroll', { limit: 2 });
    assert.deepEqual(first.json.result.points, [
      { id: 1, payload: { city: 'Berlin' } },
      { id: 2, payload: { city: 'London' } },
    ]);
    assert.equal(first.json.result.next_page_offset, 3);
    const rest = await post('/scroll', { limit: 2, offset: 3, with_payload: false });
    assert.deepEqual(rest.json.result, { points: [{ id: 3 }], next_page_offset: null });
  });

  test('scroll limit 0 is a 422 at scroll_request.limit; offset with order_by is a 400', async () => {
    const zero = await post('/scroll', { limit: 0 });
    assert.equal(zero.status, 422);
    assert.match(zero.json.status.error, /\[scroll_request\.limit: value 0 invalid, must be 1 or larger\]/);
    const both = await post('/scroll', { offset: 1, order_by: 'city' });
    assert.equal(both.status, 400);
    assert.match(both.json.status.error, /^Bad request: Cannot use an `offset` when using `order_by`/);
  });

  test("scroll with st-qdrant-memory's substring filter", async () => {
    const reply = await post('/scroll', {
      filter: { should: [{ key: 'city', match: { text: 'erli' } }] },
      limit: 1,
      with_payload: false,
    });
    assert.deepEqual(reply.json.result.points, [{ id: 1 }]);
  });

  test('count with and without a filter', async () => {
    assert.equal((await post('/count', {})).json.result.count, 3);
    const filtered = await post('/count', {
      filter: { must: [{ key: 'city', match: { value: 'London' } }] },
    });
    assert.equal(filtered.json.result.count, 1);
  });
});
