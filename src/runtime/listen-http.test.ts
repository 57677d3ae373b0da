import assert from 'node:assert/strict';
import { request } from 'node:http';
import { test } from 'node:test';
import { listenHttp } from './listen-http.js';

const hello = () => new Response('hello');

test('listenHttp serves on a free port and closes though a keep-alive connection is idle', async () => {
  const server = await listenHttp(hello, '127.0.0.1', 0);
  assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  // A keep-alive agent leaves its socket open after the answer, as browsers and fetch do.
  const body = await new Promise<string>((resolve, reject) => {
    const req = request(`${server.url}/`, { headers: { connection: 'keep-alive' } }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve(text));
    });
    req.on('error', reject);
    req.end();
  });
  assert.equal(body, 'hello');
  await server.close();
  await server.close(); // twice is fine
});

test('listenHttp rejects when the port is taken, so a second service fails at start', async () => {
  const first = await listenHttp(hello, '127.0.0.1', 0);
  try {
    await assert.rejects(listenHttp(hello, '127.0.0.1', first.port), /EADDRINUSE/);
  } finally {
    await first.close();
  }
});
