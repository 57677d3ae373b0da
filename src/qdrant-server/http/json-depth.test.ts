/** @module Tests that deeply nested bodies and very long paths are Qdrant's 400s, never a stack overflow, while Qdrant's own depth still passes. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { findTooDeep, MAX_JSON_DEPTH } from './json-depth.js';
import { openTestApp, type TestApp, type TestReply } from './test-support/open-test-app.js';

/** `depth` objects nested under key `k`, innermost `leaf`. */
const nestObjects = (depth: number, leaf = '1') => '{"k":'.repeat(depth) + leaf + '}'.repeat(depth);
const nestFilters = (depth: number) =>
  '{"must":['.repeat(depth) + '{"key":"a","match":{"value":1}}' + ']}'.repeat(depth);

function assertTooDeep(reply: TestReply): void {
  assert.equal(reply.status, 400, reply.text);
  assert.match(
    reply.json.status.error,
    /^Format error in JSON body: recursion limit exceeded at line 1 column \d+$/,
  );
}

describe('JSON nesting bound', () => {
  let app: TestApp;
  before(async () => {
    app = openTestApp();
    await app.send('PUT', '/collections/d', { vectors: { size: 2, distance: 'Dot' } });
    await app.send('PUT', '/collections/d/points?wait=true', {
      points: [{ id: 1, vector: [1, 0], payload: {} }],
    });
  });
  after(() => app.close());

  test('5,000-deep filters, payloads, prefetches and collection config are 400s', async () => {
    const deep = 5000;
    assertTooDeep(await app.send('POST', '/collections/d/points/count', `{"filter":${nestFilters(deep)}}`));
    assertTooDeep(
      await app.send(
        'POST',
        '/collections/d/points/search',
        `{"vector":[1,0],"filter":${nestFilters(deep)}}`,
      ),
    );
    assertTooDeep(
      await app.send(
        'PUT',
        '/collections/d/points?wait=true',
        `{"points":[{"id":2,"vector":[1,0],"payload":${nestObjects(deep)}}]}`,
      ),
    );
    assertTooDeep(
      await app.send(
        'POST',
        '/collections/d/points/payload?wait=true',
        `{"points":[1],"payload":${nestObjects(deep)}}`,
      ),
    );
    const prefetch = '{"prefetch":'.repeat(deep) + '{"query":[1,0]}' + '}'.repeat(deep);
    assertTooDeep(
      await app.send('POST', '/collections/d/points/query', `{"query":[1,0],"prefetch":${prefetch}}`),
    );
    assertTooDeep(
      await app.send(
        'PUT',
        '/collections/deep',
        `{"vectors":{"size":2,"distance":"Dot"},"hnsw_config":${nestObjects(deep)}}`,
      ),
    );
    assertTooDeep(await app.send('POST', '/collections/d/points/scroll', '['.repeat(deep)));
    assert.equal((await app.send('GET', '/collections/d')).status, 200);
  });

  test('Qdrant accepts 127 nested containers and refuses the 128th, at its column', async () => {
    assert.equal(findTooDeep('['.repeat(127) + ']'.repeat(127)), -1);
    assert.equal(findTooDeep('['.repeat(128)), 127);
    assert.equal(findTooDeep(`"${'['.repeat(500)}"`), -1, 'brackets inside strings do not count');
    assert.equal(findTooDeep(`["\\"${'['.repeat(500)}"]`), -1, 'an escaped quote does not end the string');
    const reply = await app.send('POST', '/collections/d/points/scroll', '['.repeat(128) + ']'.repeat(128));
    assert.equal(
      reply.json.status.error,
      'Format error in JSON body: recursion limit exceeded at line 1 column 128',
    );
  });

  test('a payload as deep as Qdrant accepts is stored and read back', async () => {
    // The body, `points` and the point are 3 levels: the payload's own objects may add MAX_JSON_DEPTH - 3.
    const payload = nestObjects(MAX_JSON_DEPTH - 3, '"bottom"');
    const body = `{"points":[{"id":3,"vector":[1,0],"payload":${payload}}]}`;
    assert.equal(findTooDeep(body), -1);
    const stored = await app.send('PUT', '/collections/d/points?wait=true', body);
    assert.equal(stored.status, 200, stored.text);
    const read = await app.send('GET', '/collections/d/points/3');
    assert.deepEqual(read.json.result.payload, JSON.parse(payload));
    const tooDeep = `{"points":[{"id":3,"vector":[1,0],"payload":${nestObjects(MAX_JSON_DEPTH - 2)}}]}`;
    assertTooDeep(await app.send('PUT', '/collections/d/points?wait=true', tooDeep));
  });

  test('a JSON path longer than any payload can be deep is a 400, not a stack overflow', async () => {
    const long = `a${'.k'.repeat(20_000)}`;
    for (const [path, body] of [
      ['/collections/d/points/payload?wait=true', { points: [1], payload: { x: 1 }, key: long }],
      ['/collections/d/points/payload/delete?wait=true', { points: [1], keys: [long] }],
      ['/collections/d/points/count', { filter: { must: [{ key: long, match: { value: 1 } }] } }],
      ['/collections/d/points/scroll', { with_payload: [long] }],
    ] as const) {
      const reply = await app.send('POST', path, body);
      assert.equal(reply.status, 400, `${path}: ${reply.text.slice(0, 300)}`);
    }
    const set = await app.send('POST', '/collections/d/points/payload?wait=true', {
      points: [1],
      payload: { x: 1 },
      key: `a${'.k'.repeat(127)}`,
    });
    assert.equal(set.status, 200, set.text);
    assert.equal((await app.send('GET', '/collections/d/points/1')).status, 200);
  });
});
