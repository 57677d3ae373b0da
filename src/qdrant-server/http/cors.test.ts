/** @module Tests for CORS: actix-cors defaults as Qdrant configures them, outside auth. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openTestApp, type TestApp } from './test-support/open-test-app.js';

const ORIGIN = 'http://localhost:8000';
const VARY = 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers';

describe('CORS', () => {
  let app: TestApp;
  before(() => {
    app = openTestApp({ apiKey: 'secret-key' });
  });
  after(() => app.close());

  test('a preflight needs no key and echoes origin and requested headers', async () => {
    const reply = await app.send('OPTIONS', '/collections/mem_x/points/search', undefined, {
      origin: ORIGIN,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type,api-key',
    });
    assert.equal(reply.status, 200);
    assert.equal(reply.text, '');
    assert.equal(reply.headers.get('access-control-allow-origin'), ORIGIN);
    assert.equal(reply.headers.get('access-control-allow-headers'), 'content-type,api-key');
    assert.equal(reply.headers.get('vary'), VARY);
    const methods = (reply.headers.get('access-control-allow-methods') ?? '').split(',').map((m) => m.trim());
    assert.deepEqual(methods.sort(), [
      'CONNECT',
      'DELETE',
      'GET',
      'HEAD',
      'OPTIONS',
      'PATCH',
      'POST',
      'PUT',
      'TRACE',
    ]);
    assert.equal(reply.headers.get('access-control-max-age'), null);
    assert.equal(reply.headers.get('access-control-allow-credentials'), null);
  });

  test('a normal cross-origin request gets the echoed origin and Vary, never *', async () => {
    const reply = await app.send('GET', '/collections', undefined, {
      origin: ORIGIN,
      'api-key': 'secret-key',
    });
    assert.equal(reply.status, 200);
    assert.equal(reply.headers.get('access-control-allow-origin'), ORIGIN);
    assert.equal(reply.headers.get('vary'), VARY);
    assert.equal(reply.headers.get('access-control-expose-headers'), null);
  });

  test('a 401 still carries CORS headers, so the browser can read it', async () => {
    const reply = await app.send('GET', '/collections', undefined, { origin: ORIGIN });
    assert.equal(reply.status, 401);
    assert.equal(reply.headers.get('access-control-allow-origin'), ORIGIN);
  });

  test('requests without an Origin get no CORS headers', async () => {
    const reply = await app.send('GET', '/healthz');
    assert.equal(reply.headers.get('access-control-allow-origin'), null);
  });
});
