/**
 * @module Answers the service sends before reading a request body (413, 401, 415, 403) reach a keep-alive client whole:
 * no reset, and the connection stays open unless the answer says `Connection: close` (issue 26 item 2).
 */
import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { startTestService, type TestService } from '../service/test-support/start-test-service.js';
import { SlowUploadSocket } from './test-support/slow-upload-socket.js';
import { discordKey } from './test-support/test-api-keys.js';

const MAX_BODY = 4096;
const ROUTES = ['/save', '/retrieve', '/forget', '/mcp'];
/** Longer than @hono/node-server waits for an unread body to drain before it closes the connection (500 ms). */
const UPLOAD_PAUSE_MS = 700;
const REQUESTS_PER_KIND = 3;

describe('answers sent before the body is read, to a keep-alive client', () => {
  let keyed: TestService;
  let keyless: TestService;
  before(async () => {
    const limits = { maxBodyBytes: MAX_BODY, maxMessagesPerSave: 500, maxTextChars: 16_000 };
    keyed = await startTestService({ config: { apiKeys: [discordKey], limits } });
    keyless = await startTestService({ config: { limits } });
  });
  after(async () => {
    await keyed.close();
    await keyless.close();
  });

  /** The answers sent before the body is read: a body over the limit, no key, not JSON, a refused Origin. */
  const rejectedKinds = () => {
    const json = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const auth = { authorization: `Bearer ${discordKey.key}` };
    const kinds = [
      { status: [413], service: () => keyed, headers: { ...json, ...auth }, size: MAX_BODY * 4 },
      { status: [401], service: () => keyed, headers: json, size: 1000 },
      // /mcp leaves a non-JSON type to the MCP SDK, which refuses it (406 without a JSON Accept).
      {
        status: [415, 406],
        service: () => keyed,
        headers: { ...auth, 'content-type': 'text/plain' },
        size: 1000,
      },
      { status: [403], service: () => keyless, headers: { ...json, origin: 'null' }, size: 1000 },
    ];
    return kinds;
  };

  test('arrive whole with no reset; a body within the limit is read, and the connection kept', async () => {
    const kinds = rejectedKinds();
    const runs = ROUTES.flatMap((path) =>
      kinds.map(async (kind) => {
        const port = Number(new URL(kind.service().url).port);
        const label = `${path} ${kind.status[0]}`;
        let socket = new SlowUploadSocket(port);
        for (let i = 0; i < REQUESTS_PER_KIND; i++) {
          const outcome = await socket.post(path, kind.headers, 'x'.repeat(kind.size), UPLOAD_PAUSE_MS);
          assert.equal(outcome.error, undefined, `${label}: the client saw ${outcome.error}`);
          assert.ok(kind.status.includes(outcome.status ?? 0), `${label}: answered ${outcome.status}`);
          if (outcome.close) {
            // Only an answer that says so may end the connection.
            socket.close();
            socket = new SlowUploadSocket(port);
          } else assert.equal(socket.closed, false, `${label}: closed without Connection: close`);
        }
        socket.close();
      }),
    );
    await Promise.all(runs);
  });

  test('a keep-alive agent uploading slowly gets every answer, on one connection unless it is told to close', async () => {
    const runs = ROUTES.flatMap((path) =>
      rejectedKinds().map(async (kind) => {
        const agent = new Agent({ keepAlive: true, maxSockets: 1 });
        const sockets = new Set<unknown>();
        const url = new URL(kind.service().url);
        for (let i = 0; i < REQUESTS_PER_KIND; i++) {
          const outcome = await new Promise<{ status?: number; error?: string }>((resolve) => {
            let status: number | undefined;
            let error: string | undefined;
            const body = 'x'.repeat(kind.size);
            const req = request(
              { host: url.hostname, port: url.port, path, method: 'POST', agent, headers: kind.headers },
              (res) => {
                status = res.statusCode;
                res.resume();
              },
            );
            req.on('socket', (socket) => sockets.add(socket));
            req.on('error', (e: NodeJS.ErrnoException) => {
              error ??= e.code ?? e.message;
            });
            req.on('close', () =>
              resolve({ ...(status === undefined ? {} : { status }), ...(error ? { error } : {}) }),
            );
            req.setHeader('content-length', String(body.length));
            req.write(body.slice(0, body.length / 2));
            // The rest follows after a pause, whether or not an answer came meanwhile.
            setTimeout(() => req.end(body.slice(body.length / 2)), UPLOAD_PAUSE_MS);
          });
          const label = `${path} ${kind.status[0]}`;
          assert.equal(outcome.error, undefined, `${label}: the agent saw ${outcome.error}`);
          assert.ok(kind.status.includes(outcome.status ?? 0), `${label}: answered ${outcome.status}`);
        }
        agent.destroy();
        // A 413 says Connection: close, so each one has its own connection; the others share one.
        if (kind.status[0] !== 413)
          assert.equal(sockets.size, 1, `${path} ${kind.status[0]}: connections used`);
      }),
    );
    await Promise.all(runs);
  });

  test('after a 413 the same socket answers the next request: the refused body is read, not cut', async () => {
    const port = Number(new URL(keyed.url).port);
    const head = (path: string, size: number) =>
      `POST ${path} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n` +
      `authorization: Bearer ${discordKey.key}\r\ncontent-length: ${size}\r\n\r\n`;
    const received = await new Promise<string>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk.toString();
        if ((text.match(/HTTP\/1\.1 /g) ?? []).length === 2 && text.endsWith('}')) socket.end();
      });
      socket.on('error', (error: NodeJS.ErrnoException) => (text += ` <${error.code}>`));
      socket.on('close', () => resolve(text));
      // A body over the limit, then a second request on the same socket without waiting for the answer.
      socket.write(head('/save', MAX_BODY * 4) + 'x'.repeat(MAX_BODY * 4));
      socket.write(`${head('/retrieve', 2)}{}`);
    });
    assert.deepEqual(received.match(/HTTP\/1\.1 \d+/g), ['HTTP/1.1 413', 'HTTP/1.1 400'], received);
    assert.doesNotMatch(received, /<E[A-Z]+>/);
  });

  test('a chunked upload over the limit gets its 413 with no reset and keeps the keep-alive connection', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<unknown>();
    const url = new URL(keyed.url);
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${discordKey.key}` };
    for (let i = 0; i < REQUESTS_PER_KIND; i++) {
      const outcome = await new Promise<{ status?: number; error?: string }>((resolve) => {
        const req = request({
          host: url.hostname,
          port: url.port,
          path: '/save',
          method: 'POST',
          agent,
          headers,
        });
        let status: number | undefined;
        let error: string | undefined;
        req.on('response', (res) => {
          status = res.statusCode;
          res.resume();
        });
        req.on('socket', (socket) => sockets.add(socket));
        req.on('error', (e: NodeJS.ErrnoException) => {
          error ??= e.code ?? e.message;
        });
        req.on('close', () =>
          resolve({ ...(status === undefined ? {} : { status }), ...(error ? { error } : {}) }),
        );
        // No content-length: chunked, 64 times the limit, written while the answer may already be on its way.
        for (let chunk = 0; chunk < 64; chunk++) req.write('x'.repeat(MAX_BODY));
        req.end();
      });
      assert.deepEqual(outcome, { status: 413 });
    }
    agent.destroy();
    assert.equal(sockets.size, 1, 'one connection for every 413');
  });
});
