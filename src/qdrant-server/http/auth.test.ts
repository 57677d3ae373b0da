/** @module Tests for API-key auth as Qdrant does it: header order, plain-text 401s, read-only 403, whitelist. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openTestApp, type TestApp } from './test-support/open-test-app.js';

const FULL = 'full-access-key-123';
const READ = 'read-only-key-456';
const CREATE = { vectors: { size: 2, distance: 'Dot' } };

describe('auth', () => {
  let app: TestApp;
  before(() => {
    app = openTestApp({ apiKey: FULL, readOnlyApiKey: READ });
  });
  after(() => app.close());

  test('no key is a plain-text 401', async () => {
    const reply = await app.send('GET', '/collections');
    assert.equal(reply.status, 401);
    assert.equal(reply.text, 'Must provide an API key or an Authorization bearer token');
  });

  test('a wrong key is a plain-text 401', async () => {
    const reply = await app.send('GET', '/collections', undefined, { 'api-key': 'nope' });
    assert.equal(reply.status, 401);
    assert.equal(reply.text, 'Invalid API key or JWT');
  });

  test('the api-key header and a Bearer token both work', async () => {
    assert.equal((await app.send('GET', '/collections', undefined, { 'api-key': FULL })).status, 200);
    const bearer = await app.send('GET', '/collections', undefined, { authorization: `Bearer ${FULL}` });
    assert.equal(bearer.status, 200);
  });

  test('the Bearer prefix is case-sensitive', async () => {
    const reply = await app.send('GET', '/collections', undefined, { authorization: `bearer ${FULL}` });
    assert.equal(reply.status, 401);
    assert.equal(reply.text, 'Must provide an API key or an Authorization bearer token');
  });

  test('a wrong api-key header is final even with a valid Bearer token', async () => {
    const reply = await app.send('GET', '/collections', undefined, {
      'api-key': 'wrong',
      authorization: `Bearer ${FULL}`,
    });
    assert.equal(reply.status, 401);
  });

  test('the read-only key reads but gets a 403 envelope on writes', async () => {
    assert.equal((await app.send('PUT', '/collections/ro', CREATE, { 'api-key': FULL })).status, 200);
    assert.equal((await app.send('GET', '/collections/ro', undefined, { 'api-key': READ })).status, 200);
    const search = await app.send(
      'POST',
      '/collections/ro/points/search',
      { vector: [1, 0], limit: 1 },
      { 'api-key': READ },
    );
    assert.equal(search.status, 200);
    for (const [method, path, body] of [
      ['PUT', '/collections/ro2', CREATE],
      ['DELETE', '/collections/ro', undefined],
      ['PUT', '/collections/ro/points', { points: [{ id: 1, vector: [1, 0] }] }],
      ['POST', '/collections/ro/points/delete', { points: [1] }],
      ['POST', '/collections/ro/points/payload', { payload: {}, points: [1] }],
      ['PUT', '/collections/ro/index', { field_name: 'a', field_schema: 'keyword' }],
    ] as const) {
      const reply = await app.send(method, path, body, { 'api-key': READ });
      assert.equal(reply.status, 403, `${method} ${path}`);
      assert.equal(reply.json.status.error, 'Forbidden: Global manage access is required');
    }
    assert.equal(
      (await app.send('GET', '/collections/ro/exists', undefined, { 'api-key': FULL })).json.result.exists,
      true,
    );
  });

  test('the version route and the probes need no key', async () => {
    for (const path of ['/', '/healthz', '/livez', '/readyz']) {
      assert.equal((await app.send('GET', path)).status, 200, path);
    }
  });
});

describe('auth switched off', () => {
  test('without keys, every request has full access and auth headers are ignored', async () => {
    const open = openTestApp();
    try {
      const reply = await open.send('PUT', '/collections/x', CREATE, { 'api-key': 'anything' });
      assert.equal(reply.status, 200);
    } finally {
      open.close();
    }
  });
});
