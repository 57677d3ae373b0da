import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { formatFieldPath, MAX_JSON_DEPTH } from './read-json-body.js';
import { createFakeServiceDeps, type FakeServiceDeps } from './test-support/fake-service-deps.js';

describe('JSON bodies: content type and depth', () => {
  let fake: FakeServiceDeps;
  before(async () => {
    fake = await createFakeServiceDeps();
  });
  after(() => fake.close());

  const retrieve = (body: string, headers: Record<string, string>) =>
    fake.app.request('/retrieve', { method: 'POST', headers, body });
  const query = JSON.stringify({ bot: 'mythos', query_text: 'bees' });

  test('a body not declared JSON is a 415 saying to send Content-Type: application/json', async () => {
    for (const headers of <Record<string, string>[]>[
      { 'content-type': 'text/plain' },
      { 'content-type': 'application/x-www-form-urlencoded' },
      { 'content-type': 'multipart/form-data; boundary=x' },
      { 'content-type': 'text/json' },
      {},
    ]) {
      const response = await retrieve(query, headers);
      assert.equal(response.status, 415, JSON.stringify(headers));
      const body = (await response.json()) as { error: { code: string; message: string } };
      assert.equal(body.error.code, 'unsupported_media_type');
      assert.match(body.error.message, /Content-Type: application\/json/);
    }
  });

  test('application/json with parameters, in any case, and application/<name>+json are accepted', async () => {
    for (const contentType of [
      'application/json',
      'application/json; charset=utf-8',
      'Application/JSON;charset=UTF-8',
      'application/vnd.memory-pool+json',
    ]) {
      const response = await retrieve(query, { 'content-type': contentType });
      assert.equal(response.status, 200, contentType);
    }
  });

  test('JSON nested deeper than the bound is a 400 that says so, however deep', async () => {
    for (const depth of [MAX_JSON_DEPTH + 1, 5_000, 200_000]) {
      const deep = `${'['.repeat(depth)}${']'.repeat(depth)}`;
      const response = await retrieve(`{"bot":"mythos","query_text":"bees","extra":${deep}}`, {
        'content-type': 'application/json',
      });
      assert.equal(response.status, 400, String(depth));
      const body = (await response.json()) as { error: { code: string; message: string; field: string } };
      assert.equal(body.error.code, 'validation_failed');
      assert.equal(body.error.field, '(body)');
      assert.match(body.error.message, new RegExp(`more than ${MAX_JSON_DEPTH} levels deep`));
    }
    const atBound = `${'['.repeat(MAX_JSON_DEPTH - 1)}${']'.repeat(MAX_JSON_DEPTH - 1)}`;
    const fits = await retrieve(`{"bot":"mythos","query_text":"bees","extra":${atBound}}`, {
      'content-type': 'application/json',
    });
    assert.equal(fits.status, 200);
  });

  test('a body of the wrong kind names the field `(body)`, as every error about the whole body does', async () => {
    for (const body of ['[]', '"bees"', 'null']) {
      const response = await retrieve(body, { 'content-type': 'application/json' });
      assert.equal(response.status, 400, body);
      const json = (await response.json()) as { error: { code: string; message: string; field: string } };
      assert.equal(json.error.field, '(body)', body);
      assert.match(json.error.message, /^\(body\): /, body);
    }
    assert.equal(formatFieldPath([]), '(body)');
    assert.equal(formatFieldPath(['messages', 2, 'text']), 'messages[2].text');
  });
});
