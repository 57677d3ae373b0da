/** @module Tests for payload index creation and removal (qdrant-subset.md §1). */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openTestApp, type TestApp } from './test-support/open-test-app.js';

describe('index routes', () => {
  let app: TestApp;
  before(async () => {
    app = openTestApp();
    await app.send('PUT', '/collections/i', { vectors: { size: 2, distance: 'Dot' } });
    await app.send('PUT', '/collections/i/points?wait=true', {
      points: [{ id: 1, vector: [1, 0], payload: { text: 'hello', tag: 'x' } }],
    });
  });
  after(() => app.close());

  const schema = async () => (await app.send('GET', '/collections/i')).json.result.payload_schema;

  test('a plain type and a text index show in payload_schema; text gets its default tokenizer', async () => {
    const keyword = await app.send('PUT', '/collections/i/index?wait=true', {
      field_name: 'tag',
      field_schema: 'keyword',
    });
    assert.equal(keyword.json.result.status, 'completed');
    await app.send('PUT', '/collections/i/index', { field_name: 'text', field_type: { type: 'text' } });
    const got = await schema();
    assert.deepEqual(got.tag, { data_type: 'keyword', points: 1 });
    assert.deepEqual(got.text.params, { type: 'text', tokenizer: 'word' });
  });

  test('a missing field_schema is the exact 400', async () => {
    const reply = await app.send('PUT', '/collections/i/index', { field_name: 'tag' });
    assert.equal(reply.status, 400);
    assert.equal(
      reply.json.status.error,
      "Bad request: Can't auto-detect field type, please specify `field_schema` in the request",
    );
  });

  test('an unknown schema type is a format error', async () => {
    const reply = await app.send('PUT', '/collections/i/index', {
      field_name: 'tag',
      field_schema: 'Keyword',
    });
    assert.equal(reply.status, 400);
    assert.match(reply.json.status.error, /^Format error in JSON body: /);
  });

  test('DELETE removes the index', async () => {
    await app.send('PUT', '/collections/i/index', { field_name: 'gone', field_schema: 'integer' });
    const reply = await app.send('DELETE', '/collections/i/index/gone?wait=true');
    assert.equal(reply.status, 200);
    assert.equal((await schema()).gone, undefined);
  });
});
