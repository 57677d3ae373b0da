import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Hono } from 'hono';
import { createLogger } from '../logging/logger.js';
import { DRAIN_REFUSED_MAX_BYTES, drainRefusedBody } from '../runtime/drain-refused-body.js';
import { type ListeningHttpServer, listenHttp } from '../runtime/listen-http.js';
import { startTestService, type TestService } from '../service/test-support/start-test-service.js';
import { createErrorHandler } from './error-handler.js';
import { limitBody } from './limit-body.js';
import { exchangeRaw } from './test-support/raw-http-exchange.js';

describe('uploads a client breaks off or garbles', () => {
  let service: TestService;
  before(async () => {
    service = await startTestService();
  });
  after(() => service.close());

  test("are the client's fault: no request is answered or counted as a 5xx", async () => {
    const port = Number(new URL(service.url).port);
    const body = JSON.stringify({ bot: 'mythos', query_text: 'hello' });
    const head = (path: string, framing: string) =>
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n${framing}\r\n`;
    for (const path of ['/retrieve', '/save', '/forget', '/mcp']) {
      // Half the declared length, then the connection is reset.
      await exchangeRaw(port, [head(path, 'Content-Length: 500\r\n'), body.slice(0, 10), 'pause', 'abort']);
      // A chunked upload cut off after its first chunk.
      await exchangeRaw(port, [
        head(path, 'Transfer-Encoding: chunked\r\n'),
        `a\r\n${body.slice(0, 10)}\r\n`,
        'pause',
        'abort',
      ]);
      // A chunk size that is not hexadecimal.
      const garbled = await exchangeRaw(port, [
        head(path, 'Transfer-Encoding: chunked\r\n'),
        'ZZ\r\nabc\r\n0\r\n\r\n',
      ]);
      assert.equal(garbled.status, 400, path);
    }
    const metrics = await (await fetch(`${service.url}/metrics`)).text();
    const serverErrors = metrics
      .split('\n')
      .filter((line) => /^memory_pool_http_requests_total\{.*status="5/.test(line));
    assert.deepEqual(serverErrors, []);
  });
});

describe('a chunked upload over the limit that stalls', () => {
  let server: ListeningHttpServer;
  before(async () => {
    const app = new Hono();
    app.onError(createErrorHandler(createLogger({ level: 'silent' })));
    // The outer drain waits a minute here: were it to wait again after the limit's own drain, the test times out.
    app.use(drainRefusedBody(DRAIN_REFUSED_MAX_BYTES, 60_000));
    app.use(limitBody(100));
    app.post('/', (c) => c.text('read'));
    server = await listenHttp(app.fetch, '127.0.0.1', 0);
  });
  after(() => server.close());

  test('is drained once: the 413 comes, then the connection is closed after one drain timeout', {
    timeout: 30_000,
  }, async () => {
    const head = 'POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n';
    const chunk = `c8\r\n${'x'.repeat(200)}\r\n`;
    // idleMs past the test's timeout: the exchange ends when the server closes the connection.
    const answer = await exchangeRaw(Number(new URL(server.url).port), [head, chunk], 120_000);
    assert.equal(answer.status, 413);
    assert.match(answer.text, /connection: close/i);
  });
});

describe('a declared length over what the drain reads', () => {
  let server: ListeningHttpServer;
  before(async () => {
    const app = new Hono();
    app.onError(createErrorHandler(createLogger({ level: 'silent' })));
    // The drain reads at most 1000 bytes and would wait a minute for them: the test times out if it tries.
    app.use(drainRefusedBody(1000, 60_000));
    app.use(limitBody(100));
    app.post('/', (c) => c.text('read'));
    server = await listenHttp(app.fetch, '127.0.0.1', 0);
  });
  after(() => server.close());

  test('is answered 413 and its connection closed at once, not read', { timeout: 30_000 }, async () => {
    const head = 'POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5000\r\n\r\n';
    const answer = await exchangeRaw(Number(new URL(server.url).port), [head, 'x'.repeat(200)], 120_000);
    assert.equal(answer.status, 413);
    assert.match(answer.text, /connection: close/i);
  });
});

describe('Expect: 100-continue with a declared length over the limit', () => {
  let server: ListeningHttpServer;
  before(async () => {
    const app = new Hono();
    app.onError(createErrorHandler(createLogger({ level: 'silent' })));
    // A drain that would wait a minute for a body the client never sends: the test times out if it tries.
    app.use(drainRefusedBody(DRAIN_REFUSED_MAX_BYTES, 60_000));
    app.use(limitBody(100));
    app.post('/', (c) => c.text('read'));
    server = await listenHttp(app.fetch, '127.0.0.1', 0, { maxBodyBytes: 100 });
  });
  after(() => server.close());

  test('gets its 413 at once, without 100 Continue, and the connection closed', {
    timeout: 30_000,
  }, async () => {
    const head = 'POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 100-continue\r\nContent-Length: 5000\r\n\r\n';
    const answer = await exchangeRaw(Number(new URL(server.url).port), [head], 120_000);
    assert.equal(answer.status, 413);
    assert.doesNotMatch(answer.text, /100 Continue/);
    assert.match(answer.text, /connection: close/i);
  });

  test('within the limit is told to continue and read', { timeout: 30_000 }, async () => {
    const head = 'POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n';
    const answer = await exchangeRaw(Number(new URL(server.url).port), [head, 'pause', 'hello']);
    assert.match(answer.text, /^HTTP\/1\.1 100 Continue/);
    assert.match(answer.text, /200 OK[\s\S]*read$/);
  });
});
