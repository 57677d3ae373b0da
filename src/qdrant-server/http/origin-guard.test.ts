/** @module Tests that without a key no web page but a loopback (or configured) one can reach the store, and that a key restores Qdrant's open CORS. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { parseWebOrigin } from './origin-guard.js';
import { openTestApp, type TestApp, type TestReply } from './test-support/open-test-app.js';

const preflight = (app: TestApp, origin: string) =>
  app.send('OPTIONS', '/collections/c/points/search', undefined, {
    origin,
    'access-control-request-method': 'POST',
    'access-control-request-headers': 'content-type',
  });

function assertRefused(reply: TestReply, pattern: RegExp): void {
  assert.equal(reply.status, 403, reply.text);
  assert.match(reply.json.status.error, /^Forbidden: /);
  assert.match(reply.json.status.error, pattern);
  assert.equal(typeof reply.json.time, 'number');
  assert.equal(reply.headers.get('access-control-allow-origin'), null);
}

describe('origin guard without a key', () => {
  let app: TestApp;
  before(() => {
    app = openTestApp({ corsOrigins: ['http://st.home.arpa:8000/'] });
  });
  after(() => app.close());

  test('loopback origins of any port and scheme are served and echoed', async () => {
    for (const origin of [
      'http://localhost:8000',
      'http://127.0.0.1:3000',
      'https://127.8.9.10',
      'http://[::1]:8000',
      'http://LOCALHOST:1',
    ]) {
      const reply = await app.send('GET', '/collections', undefined, { origin });
      assert.equal(reply.status, 200, `${origin}: ${reply.text}`);
      assert.equal(reply.headers.get('access-control-allow-origin'), origin);
      const pre = await preflight(app, origin);
      assert.equal(pre.status, 200);
      assert.equal(pre.headers.get('access-control-allow-origin'), origin);
    }
  });

  test('a configured origin is served; the list is compared by origin', async () => {
    const reply = await app.send('GET', '/collections', undefined, { origin: 'http://st.home.arpa:8000' });
    assert.equal(reply.status, 200);
    assert.equal(reply.headers.get('access-control-allow-origin'), 'http://st.home.arpa:8000');
    assertRefused(
      await app.send('GET', '/collections', undefined, { origin: 'http://st.home.arpa:8001' }),
      /st\.home\.arpa:8001/,
    );
  });

  test('a foreign origin can neither read nor write, preflight included', async () => {
    for (const origin of [
      'https://evil.example',
      'http://localhost.evil.example',
      'http://127.0.0.1.nip.io:8000',
      'file://',
      'chrome-extension://abc',
      'not an origin',
    ]) {
      assertRefused(
        await preflight(app, origin),
        /without an API key a browser page must not reach your memories/,
      );
      assertRefused(await app.send('GET', '/collections', undefined, { origin }), /web origin/);
      assertRefused(
        await app.send('PUT', '/collections/evil', { vectors: { size: 2, distance: 'Dot' } }, { origin }),
        /store\.embedded\.corsOrigins/,
      );
    }
    assert.equal((await app.send('GET', '/collections/evil/exists')).json.result.exists, false);
  });

  test('Origin: null (sandboxed frames, file: and data: pages) is refused', async () => {
    assertRefused(await app.send('GET', '/collections', undefined, { origin: 'null' }), /"null"/);
    assertRefused(await preflight(app, 'null'), /"null"/);
  });

  test('a foreign Host (DNS rebinding) is refused; loopback names are served', async () => {
    for (const host of ['evil.example', 'evil.example:6333', '192.168.1.5:6333', '[2001:db8::1]:6333']) {
      assertRefused(await app.send('GET', '/collections', undefined, { host }), /requests for host/);
    }
    for (const host of ['localhost:6333', '127.0.0.1:6333', '[::1]:6333', 'localhost']) {
      assert.equal((await app.send('GET', '/collections', undefined, { host })).status, 200, host);
    }
  });
});

describe('origin guard with a key', () => {
  let app: TestApp;
  before(() => {
    app = openTestApp({ apiKey: 'k' });
  });
  after(() => app.close());

  test('every origin and host may call, as in Qdrant; the key decides', async () => {
    const headers = { origin: 'https://evil.example', host: 'memories.example:6333' };
    const denied = await app.send('GET', '/collections', undefined, headers);
    assert.equal(denied.status, 401);
    assert.equal(denied.headers.get('access-control-allow-origin'), 'https://evil.example');
    const ok = await app.send('GET', '/collections', undefined, { ...headers, 'api-key': 'k' });
    assert.equal(ok.status, 200);
    assert.equal((await preflight(app, 'null')).headers.get('access-control-allow-origin'), 'null');
  });
});

test('parseWebOrigin accepts scheme://host[:port] and nothing more', () => {
  assert.equal(parseWebOrigin('http://localhost:8000/'), 'http://localhost:8000');
  assert.equal(parseWebOrigin('HTTPS://Example.COM:443'), 'https://example.com');
  for (const bad of ['null', 'http://a/b', 'http://a?x', 'ftp://a', 'http://u:p@a', '']) {
    assert.equal(parseWebOrigin(bad), undefined, bad);
  }
});
