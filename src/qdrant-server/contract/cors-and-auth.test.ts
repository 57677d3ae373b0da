/** @module Contract: CORS for browser callers and API-key auth, full and read-only (qdrant-subset.md §0.3, §0.4). */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { QdrantClient } from '@qdrant/js-client-rest';
import { readEnv } from '../../runtime/read-env.js';
import { expectError, expectOk } from './expect-envelope.js';
import { sendHttp } from './send-http.js';
import { type ContractTarget, isRealQdrant, openTarget } from './target.js';

const origin = 'http://localhost:8000';
const allMethods = ['GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'OPTIONS', 'CONNECT', 'PATCH', 'TRACE'];

/** Lower-cased, trimmed items of a comma-separated header. */
const headerList = (value: string | null) =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);

describe('cors', () => {
  let target: ContractTarget;
  before(async () => {
    target = await openTarget();
  });
  after(() => target.close());

  test('a preflight gets 200, an empty body, the echoed origin and headers, every method (§0.4)', async () => {
    const reply = await target.http('OPTIONS', '/collections/anything/points/search', undefined, {
      Origin: origin,
      'Access-Control-Request-Method': 'POST',
      'Access-Control-Request-Headers': 'content-type,api-key',
    });
    assert.equal(reply.status, 200);
    assert.equal(reply.text, '');
    assert.equal(reply.headers.get('access-control-allow-origin'), origin);
    assert.deepEqual(
      headerList(reply.headers.get('access-control-allow-methods')).sort(),
      allMethods.map((m) => m.toLowerCase()).sort(),
    );
    assert.deepEqual(headerList(reply.headers.get('access-control-allow-headers')).sort(), [
      'api-key',
      'content-type',
    ]);
    const vary = headerList(reply.headers.get('vary'));
    for (const item of ['origin', 'access-control-request-method', 'access-control-request-headers']) {
      assert.ok(vary.includes(item), `Vary lacks ${item}: ${reply.headers.get('vary')}`);
    }
    assert.equal(reply.headers.get('access-control-max-age'), null);
    assert.equal(reply.headers.get('access-control-allow-credentials'), null);
  });

  test('normal responses echo the origin and vary on it, without exposing headers (§0.4)', async () => {
    const reply = await target.http('GET', '/collections', undefined, { Origin: origin });
    expectOk(reply);
    assert.equal(reply.headers.get('access-control-allow-origin'), origin);
    assert.ok(headerList(reply.headers.get('vary')).includes('origin'));
    assert.equal(reply.headers.get('access-control-expose-headers'), null);
    const missing = await target.http(
      'GET',
      `/collections/${target.uniqueCollection('cors_missing')}`,
      undefined,
      { Origin: origin },
    );
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.get('access-control-allow-origin'), origin);
  });
});

// Auth needs a keyed server: the embedded store is started with keys; a real Qdrant only if its keys are given.
const skipAuth =
  isRealQdrant() && readEnv(process.env, 'QDRANT_API_KEY') === undefined
    ? 'set QDRANT_API_KEY to test auth on a real Qdrant'
    : false;
const skipReadOnly =
  isRealQdrant() && readEnv(process.env, 'QDRANT_READ_ONLY_API_KEY') === undefined
    ? 'set QDRANT_READ_ONLY_API_KEY for read-only tests'
    : false;

describe('auth', { skip: skipAuth }, () => {
  let target: ContractTarget;
  let name: string;
  /** A request with exactly the given headers: no key is added. */
  const bare = (method: string, path: string, headers: Record<string, string> = {}, body?: unknown) =>
    sendHttp(target.url, method, path, body, headers);
  before(async () => {
    target = await openTarget({ apiKey: 'contract-full-key', readOnlyApiKey: 'contract-read-key' });
    name = target.uniqueCollection('auth');
    expectOk(await target.http('PUT', `/collections/${name}`, { vectors: { size: 4, distance: 'Dot' } }));
  });
  after(() => target.close());

  test('no key is 401 in plain text; a wrong key is 401 (§0.3)', async () => {
    const none = await bare('GET', '/collections');
    assert.equal(none.status, 401);
    assert.equal(none.text, 'Must provide an API key or an Authorization bearer token');
    const wrong = await bare('GET', '/collections', { 'api-key': 'nope' });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.text, 'Invalid API key or JWT');
  });

  test('the key works as api-key or as an exact "Bearer " token; a wrong api-key is not rescued (§0.3)', async () => {
    const key = target.apiKey as string;
    expectOk(await bare('GET', '/collections', { 'api-key': key }));
    expectOk(await bare('GET', '/collections', { Authorization: `Bearer ${key}` }));
    assert.equal((await bare('GET', '/collections', { Authorization: `bearer ${key}` })).status, 401);
    assert.equal(
      (await bare('GET', '/collections', { 'api-key': 'nope', Authorization: `Bearer ${key}` })).status,
      401,
    );
    const client = new QdrantClient({ url: target.url, apiKey: key, checkCompatibility: false });
    assert.deepEqual(await client.collectionExists(name), { exists: true });
  });

  test('/, health routes and preflights need no key; a 401 still carries CORS headers (§0.3, §0.4)', async () => {
    for (const path of ['/', '/healthz', '/readyz', '/livez'])
      assert.equal((await bare('GET', path)).status, 200, path);
    const preflight = await bare('OPTIONS', '/collections', {
      Origin: origin,
      'Access-Control-Request-Method': 'GET',
      'Access-Control-Request-Headers': 'api-key',
    });
    assert.equal(preflight.status, 200);
    assert.equal(preflight.headers.get('access-control-allow-origin'), origin);
    const denied = await bare('GET', '/collections', { Origin: origin });
    assert.equal(denied.status, 401);
    assert.equal(denied.headers.get('access-control-allow-origin'), origin);
  });

  test('the read-only key reads, and every write is 403 (§0.3)', { skip: skipReadOnly }, async () => {
    const read = { 'api-key': target.readOnlyApiKey as string };
    expectOk(await bare('GET', '/collections', read));
    expectOk(await bare('POST', `/collections/${name}/points/scroll`, read, {}));
    expectOk(
      await bare('POST', `/collections/${name}/points/search`, read, { vector: [1, 0, 0, 0], limit: 1 }),
    );
    const writes: [string, string, unknown?][] = [
      [
        'PUT',
        `/collections/${target.uniqueCollection('auth_ro')}`,
        { vectors: { size: 4, distance: 'Dot' } },
      ],
      ['DELETE', `/collections/${name}`],
      ['PUT', `/collections/${name}/index`, { field_name: 'a', field_schema: 'keyword' }],
      ['PUT', `/collections/${name}/points?wait=true`, { points: [{ id: 1, vector: [1, 0, 0, 0] }] }],
      ['POST', `/collections/${name}/points/delete?wait=true`, { points: [1] }],
      ['POST', `/collections/${name}/points/payload?wait=true`, { payload: { a: 1 }, points: [1] }],
      ['POST', `/collections/${name}/points/payload/clear?wait=true`, { points: [1] }],
    ];
    for (const [method, path, body] of writes) {
      expectError(await bare(method, path, read, body), 403, 'Forbidden: Global manage access is required');
    }
    assert.deepEqual(expectOk(await target.http('GET', `/collections/${name}/exists`)), { exists: true });
    assert.equal(expectOk(await target.http('POST', `/collections/${name}/points/count`, {})).count, 0);
  });
});
