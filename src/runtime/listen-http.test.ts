import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
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

/** Sends requests back to back on one keep-alive connection until one fails; resolves with how many answered. */
async function sendBackToBack(url: string, agent: Agent, done: () => boolean): Promise<number> {
  let answered = 0;
  while (!done()) {
    const ok = await new Promise<boolean>((resolve) => {
      const req = request(`${url}/`, { agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(true));
      });
      req.on('error', () => resolve(false));
      req.end();
    });
    if (!ok) return answered;
    answered++;
  }
  return answered;
}

// Without the stop's `Connection: close`, close() waits for connections that never go idle.
test('a stop ends while clients send back-to-back requests on keep-alive connections', {
  timeout: 20_000,
}, async () => {
  // A handler that takes a moment, as /save does: the connection is busy, not idle, when close() starts.
  const busy = () => new Promise<Response>((resolve) => setTimeout(() => resolve(new Response('hello')), 5));
  const server = await listenHttp(busy, '127.0.0.1', 0, { closeGraceMs: 60_000 });
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  let given = false;
  const clients = Array.from({ length: 4 }, () => sendBackToBack(server.url, agent, () => given));
  await new Promise((resolve) => setTimeout(resolve, 200));
  // A cap far beyond what a stop takes, so the test fails rather than hangs when the stop never ends.
  const giveUp = new Promise<'never ended'>((resolve) => setTimeout(resolve, 15_000, 'never ended').unref());
  const outcome = await Promise.race([server.close().then(() => 'stopped'), giveUp]);
  given = true;
  const answered = await Promise.all(clients);
  agent.destroy();
  assert.equal(outcome, 'stopped');
  assert.ok(
    answered.every((count) => count > 0),
    `every client was answered before the stop: ${answered}`,
  );
});

test('a stop cuts a request still unanswered after the grace period', { timeout: 20_000 }, async () => {
  const never = () => new Promise<Response>(() => {});
  const server = await listenHttp(never, '127.0.0.1', 0, { closeGraceMs: 100 });
  const failed = new Promise<Error>((resolve) => {
    request(`${server.url}/`, () => resolve(new Error('answered')))
      .on('error', resolve)
      .end();
  });
  await new Promise((resolve) => setTimeout(resolve, 100));
  await server.close();
  assert.match((await failed).message, /socket hang up|ECONNRESET/);
});

test('a stop with a request in flight ends once it is answered, not after the grace period', {
  timeout: 20_000,
}, async () => {
  let answer: (() => void) | undefined;
  const slow = () => new Promise<Response>((resolve) => (answer = () => resolve(new Response('late'))));
  // A grace this long would time the test out if the stop waited for it.
  const server = await listenHttp(slow, '127.0.0.1', 0, { closeGraceMs: 60_000 });
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const answered = new Promise<{ body: string; connection?: string; socketClosed: Promise<void> }>(
      (resolve, reject) => {
        const req = request(`${server.url}/`, { agent }, (res) => {
          let body = '';
          const socketClosed = new Promise<void>((closed) => res.socket.once('close', () => closed()));
          res.on('data', (chunk) => (body += chunk));
          res.on('end', () => resolve({ body, connection: res.headers.connection, socketClosed }));
        });
        req.on('error', reject);
        req.end();
      },
    );
    while (answer === undefined) await new Promise((resolve) => setTimeout(resolve, 10));
    const stopped = server.close();
    answer();
    const { body, connection, socketClosed } = await answered;
    assert.equal(body, 'late');
    // The server says it closes the connection, and does, rather than keeping it for the grace cut.
    assert.equal(connection, 'close');
    await socketClosed;
    await stopped;
  } finally {
    agent.destroy();
  }
});
