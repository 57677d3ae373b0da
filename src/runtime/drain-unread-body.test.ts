/**
 * @module The unread-body drain over a real socket: a client that declares a body and stalls still gets the early
 * answer, told `Connection: close`, instead of waiting for Node's request timeout.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { Hono } from 'hono';
import { drainUnreadBody } from './drain-unread-body.js';
import { type ListeningHttpServer, listenHttp } from './listen-http.js';

/** Sends `raw` and resolves with what came back once the server ends the connection or the first answer is whole. */
function exchange(port: number, raw: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString();
      if (/\r\n\r\n[\s\S]*refused$/.test(received)) socket.destroy();
    });
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
    socket.write(raw);
  });
}

describe('drainUnreadBody', () => {
  let server: ListeningHttpServer;
  before(async () => {
    const app = new Hono();
    app.use(drainUnreadBody(200));
    // An early answer that reads no body, as an auth check gives.
    app.post('/early', (c) => c.text('refused', 401));
    server = await listenHttp(app.fetch, '127.0.0.1', 0);
  });
  after(() => server.close());

  // Without a bound on the drain, the answer waits for the rest of the body: Node's requestTimeout (300 s).
  test('a body declared but never sent: the answer still comes, saying Connection: close', { timeout: 30_000 }, async () => {
    const answer = await exchange(server.port, 'POST /early HTTP/1.1\r\nhost: x\r\ncontent-length: 1000\r\n\r\n{"half":');
    assert.match(answer, /^HTTP\/1\.1 401/);
    assert.match(answer, /\r\nconnection: close\r\n/i);
    assert.match(answer, /refused$/);
  });

  test('a body sent whole is read, and the connection kept', { timeout: 30_000 }, async () => {
    const body = 'x'.repeat(1000);
    const answer = await exchange(server.port, `POST /early HTTP/1.1\r\nhost: x\r\ncontent-length: 1000\r\n\r\n${body}`);
    assert.match(answer, /^HTTP\/1\.1 401/);
    assert.match(answer, /\r\nconnection: keep-alive\r\n/i);
  });
  // Reading `body` makes @hono/node-server build a full Request, which its fast path for bodiless requests avoids.
  test('a GET, a HEAD, or a request declaring no body: its body is never looked at', async () => {
    const app = new Hono();
    app.use(drainUnreadBody());
    app.on(['GET', 'HEAD', 'POST'], '/x', (c) => c.text('refused', 401));
    const bodyReads = async (init: RequestInit) => {
      const request = new Request('http://127.0.0.1/x', init);
      let reads = 0;
      Object.defineProperty(request, 'body', {
        get() {
          reads += 1;
          return null;
        },
      });
      assert.equal((await app.fetch(request)).status, 401);
      return reads;
    };
    assert.equal(await bodyReads({ method: 'GET' }), 0);
    assert.equal(await bodyReads({ method: 'HEAD' }), 0);
    assert.equal(await bodyReads({ method: 'POST' }), 0);
    // A declared body is still drained.
    assert.ok((await bodyReads({ method: 'POST', headers: { 'content-length': '2' } })) > 0);
    assert.ok((await bodyReads({ method: 'POST', headers: { 'transfer-encoding': 'chunked' } })) > 0);
  });
});
