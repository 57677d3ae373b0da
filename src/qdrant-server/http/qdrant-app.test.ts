/** @module Tests for the app's shared behavior: envelope, service routes, routing, body extraction errors. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { StoreEngine } from '../engine/engine-api.js';
import { createQdrantApp } from './qdrant-app.js';
import { openTestApp, type TestApp } from './test-support/open-test-app.js';

describe('Qdrant app', () => {
  let app: TestApp;
  before(() => {
    app = openTestApp();
  });
  after(() => app.close());

  test('GET / returns version info without the envelope', async () => {
    const reply = await app.send('GET', '/');
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.json, { title: 'qdrant - vector search engine', version: '1.19.0' });
  });

  test('the probes answer plain text', async () => {
    assert.equal((await app.send('GET', '/healthz')).text, 'healthz check passed');
    assert.equal((await app.send('GET', '/livez')).text, 'healthz check passed');
    const ready = await app.send('GET', '/readyz');
    assert.equal(ready.text, 'all shards are ready');
    assert.match(ready.headers.get('content-type') ?? '', /^text\/plain/);
  });

  test('a success has result, status ok and a numeric time', async () => {
    const reply = await app.send('GET', '/collections');
    assert.equal(reply.status, 200);
    assert.deepEqual(Object.keys(reply.json).sort(), ['result', 'status', 'time']);
    assert.equal(reply.json.status, 'ok');
    assert.equal(typeof reply.json.time, 'number');
    assert.deepEqual(reply.json.result, { collections: [] });
  });

  test('an error has status.error and time but no result key', async () => {
    const reply = await app.send('GET', '/collections/nope');
    assert.equal(reply.status, 404);
    assert.deepEqual(Object.keys(reply.json).sort(), ['status', 'time']);
    assert.equal(reply.json.status.error, "Not found: Collection `nope` doesn't exist!");
  });

  test('a trailing slash and repeated slashes are trimmed before routing', async () => {
    assert.equal((await app.send('GET', '/collections/')).status, 200);
    assert.equal((await app.send('GET', '//collections//')).status, 200);
    assert.equal((await app.send('GET', '/collections/nope/exists/')).json.result.exists, false);
  });

  test('an unknown route is an empty 404', async () => {
    const reply = await app.send('GET', '/no/such/route');
    assert.equal(reply.status, 404);
    assert.equal(reply.text, '');
  });

  test('JSON that does not parse is a 400 format error with time 0', async () => {
    const reply = await app.send('PUT', '/collections/bad', '{"vectors":');
    assert.equal(reply.status, 400);
    assert.match(reply.json.status.error, /^Format error in JSON body: /);
    assert.equal(reply.json.time, 0);
  });

  test('an empty body is a format error, not a crash', async () => {
    const reply = await app.send('POST', '/collections/x/points/count', '');
    assert.equal(reply.status, 400);
    assert.equal(
      reply.json.status.error,
      'Format error in JSON body: EOF while parsing a value at line 1 column 0',
    );
  });

  test('a body without a JSON content type is rejected like actix', async () => {
    const reply = await app.send('POST', '/collections/x/points/count', '{}', {
      'content-type': 'text/plain',
    });
    assert.equal(reply.status, 400);
    assert.equal(reply.json.status.error, 'Content type error');
  });

  test('a body declared larger than 32 MB is refused with 400', async () => {
    const reply = await app.send('POST', '/collections/x/points/count', '{}', {
      'content-length': '40000000',
    });
    assert.equal(reply.status, 400);
    assert.match(reply.json.status.error, /larger than allowed \(limit: 33554432 bytes\)/);
  });

  test('an unexpected engine failure is a 500 service error in the envelope', async () => {
    const failing = {
      listCollections(): string[] {
        throw new Error('disk I/O error');
      },
    } as unknown as StoreEngine;
    const response = await createQdrantApp({ engine: failing }).request('/collections');
    assert.equal(response.status, 500);
    assert.deepEqual(((await response.json()) as { status: unknown }).status, {
      error: 'Service internal error: disk I/O error',
    });
  });
});
