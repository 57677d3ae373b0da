import assert from 'node:assert/strict';
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

  test('arrive whole with no reset; a body within the limit is read, and the connection kept', async () => {
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
});
