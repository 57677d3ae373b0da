import assert from 'node:assert/strict';
import { once } from 'node:events';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { startTestService, type TestService } from '../service/test-support/start-test-service.js';

describe('a 413 over a real keep-alive connection', () => {
  let service: TestService;
  before(async () => {
    service = await startTestService({
      config: { limits: { maxBodyBytes: 4096, maxMessagesPerSave: 50, maxTextChars: 1000 } },
    });
  });
  after(() => service.close());

  /** POSTs `body` through `agent`, resolving with the status, the Connection header and the socket used. */
  const post = (agent: Agent, body: string) =>
    new Promise<{ status: number; connection: string | undefined; socket: unknown }>((resolve, reject) => {
      const req = request(
        new URL('/retrieve', service.url),
        {
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          res.resume();
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, socket: req.socket }),
          );
        },
      );
      req.on('error', reject);
      req.end(body);
    });

  test('the 413 keeps the connection (its body is read), so the next request reuses it and succeeds', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const small = JSON.stringify({ bot: 'mythos', query_text: 'hello' });
      const warm = await post(agent, small);
      assert.equal(warm.status, 200);
      const big = JSON.stringify({ bot: 'mythos', query_text: 'x'.repeat(10_000) });
      const refused = await post(agent, big);
      assert.equal(refused.status, 413);
      assert.equal(refused.connection, 'keep-alive');
      const next = await post(agent, small);
      assert.equal(next.status, 200);
      assert.equal(next.socket, refused.socket);
    } finally {
      agent.destroy();
    }
  });

  test('a slow uploader told keep-alive can use the connection again; told close, it sees it closed', async () => {
    const socket = connect(Number(new URL(service.url).port), '127.0.0.1');
    await once(socket, 'connect');
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.on('error', () => {});
    const closed = once(socket, 'close');
    const requestText = (body: string) =>
      `POST /retrieve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    const big = requestText(JSON.stringify({ bot: 'mythos', query_text: 'x'.repeat(10_000) }));
    // The first part of an oversized upload; the 413 comes back before the rest is sent.
    socket.write(big.slice(0, 6000));
    while (!/\r\n\r\n\{.*\}\}/s.test(received)) await once(socket, 'data');
    assert.match(received, /^HTTP\/1\.1 413 /);
    const announced = /^connection: (.*)$/im.exec(received)?.[1]?.trim().toLowerCase();
    // A second later the uploader finishes and sends its next request on the same connection.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    if (announced === 'close') {
      await closed;
      return;
    }
    received = '';
    socket.write(big.slice(6000));
    socket.write(requestText(JSON.stringify({ bot: 'mythos', query_text: 'hello' })));
    await Promise.race([closed, once(socket, 'data')]);
    socket.destroy();
    assert.match(
      received,
      /^HTTP\/1\.1 200 /,
      `the 413 said "Connection: ${announced}", then the connection was dropped`,
    );
  });
});
