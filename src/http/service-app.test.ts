/** @module The service's HTTP app tested in-process (`app.request()`, no port): auth, limits, envelopes, field paths. */
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import type { MemoryPoolConfig } from '../config/config-types.js';
import { testBot } from '../config/test-support/test-bot.js';
import type { ErrorResponse } from '../wire/error-response.js';
import { createFakeServiceDeps, type FakeServiceDeps } from './test-support/fake-service-deps.js';
import { discordKey, readerKey } from './test-support/test-api-keys.js';

let fake: FakeServiceDeps | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** The app over fresh fake deps; the deps are closed after each test. */
async function createApp(config: Partial<MemoryPoolConfig> = {}) {
  fake = await createFakeServiceDeps({ bots: [testBot('mythos'), testBot('other')], config });
  return fake.app;
}

/** POSTs `body` (JSON unless a string) and reads the answer as JSON. */
async function post(
  app: Awaited<ReturnType<typeof createApp>>,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
  // biome-ignore lint/suspicious/noExplicitAny: tests read response fields directly
): Promise<{ status: number; json: any; headers: Headers }> {
  const response = await app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : undefined, headers: response.headers };
}

const window = (extra: Record<string, unknown> = {}) => ({
  bot: 'mythos',
  messages: [{ speaker_kind: 'user', text: 'hi there', message_id: `m-${Math.random()}` }],
  ...extra,
});

describe('with API keys', () => {
  const withKeys = () => createApp({ apiKeys: [discordKey, readerKey] });

  test('no key and a wrong key are 401; Bearer and x-api-key both work', async () => {
    const app = await withKeys();
    const missing = await post(app, '/save', window());
    assert.equal(missing.status, 401);
    assert.equal(missing.json.error.code, 'unauthorized');
    const wrong = await post(app, '/save', window(), { authorization: 'Bearer wrong-key-0123456789' });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.json.error.code, 'unauthorized');
    assert.equal(
      (await post(app, '/save', window(), { authorization: `Bearer ${discordKey.key}` })).status,
      200,
    );
    assert.equal((await post(app, '/save', window(), { 'x-api-key': discordKey.key })).status, 200);
    assert.equal(fake?.wakes(), 2, 'each accepted window wakes the writer');
  });

  test('a key is limited to its bots, sources and scopes (403)', async () => {
    const app = await withKeys();
    const auth = { authorization: `Bearer ${discordKey.key}` };
    const otherBot = await post(app, '/save', window({ bot: 'other' }), auth);
    assert.equal(otherBot.status, 403);
    assert.equal(otherBot.json.error.code, 'forbidden');
    assert.match(otherBot.json.error.message, /may not use the bot "other"/);
    const otherSource = await post(app, '/save', window({ source: 'hermes' }), auth);
    assert.equal(otherSource.status, 403);
    assert.match(otherSource.json.error.message, /source "hermes"/);
    const reader = await post(app, '/save', window(), { authorization: `Bearer ${readerKey.key}` });
    assert.equal(reader.status, 403);
    assert.match(reader.json.error.message, /does not have the save scope/);
    const recall = await post(
      app,
      '/retrieve',
      { bot: 'other', query_text: 'hi' },
      { 'x-api-key': readerKey.key },
    );
    assert.equal(recall.status, 200);
  });

  test("a source-scoped key's recall is not limited by its sources: it may filter by another source", async () => {
    const app = await withKeys();
    const recall = await post(
      app,
      '/retrieve',
      { bot: 'mythos', query_text: 'hi', sources: ['hermes'] },
      { authorization: `Bearer ${discordKey.key}` },
    );
    assert.equal(recall.status, 200);
  });

  test('health, readiness and metrics need no key; a foreign Host is served (keys guard instead)', async () => {
    const app = await withKeys();
    for (const path of ['/health', '/ready', '/metrics']) {
      assert.equal((await app.request(path)).status, 200, path);
    }
    const foreign = await post(
      app,
      '/retrieve',
      { bot: 'mythos', query_text: 'hi' },
      {
        host: 'memory.example',
        origin: 'https://memory.example',
        'x-api-key': readerKey.key,
      },
    );
    assert.equal(foreign.status, 200);
  });

  test('keys replaced while running: a removed key is 401 at once; with none left, the loopback guard is back', async () => {
    const app = await withKeys();
    const recall = (headers: Record<string, string>) =>
      post(app, '/retrieve', { bot: 'mythos', query_text: 'hi' }, headers);
    fake!.deps.apiKeys.replace([discordKey]);
    assert.equal((await recall({ 'x-api-key': readerKey.key })).status, 401);
    assert.equal((await recall({ 'x-api-key': discordKey.key })).status, 200);
    fake!.deps.apiKeys.replace([]);
    assert.equal((await recall({ host: 'evil.example:3102' })).status, 403);
    assert.equal((await recall({ host: '127.0.0.1:3102' })).status, 200);
  });
});

describe('request bodies', () => {
  test('a body over limits.maxBodyBytes is a 413 in the envelope, closing the connection', async () => {
    const app = await createApp({
      limits: { maxBodyBytes: 4096, maxMessagesPerSave: 50, maxTextChars: 1000 },
    });
    const response = await post(app, '/save', window({ padding: 'x'.repeat(8000) }));
    assert.equal(response.status, 413);
    assert.deepEqual(response.json, {
      error: {
        code: 'body_too_large',
        message: 'the request body is larger than 4096 bytes; send fewer or shorter messages per call',
        field: '(body)',
      },
    });
    assert.equal(response.headers.get('connection'), 'close');
    assert.equal(fake?.wakes(), 0);
  });

  test('a body not declared JSON is a 415', async () => {
    const app = await createApp();
    const response = await post(app, '/save', JSON.stringify(window()), { 'content-type': 'text/plain' });
    assert.equal(response.status, 415);
    assert.equal(response.json.error.code, 'unsupported_media_type');
    assert.match(response.json.error.message, /got "text\/plain"/);
  });

  test('a field that does not fit is a 400 naming its path', async () => {
    const app = await createApp();
    const response = await post(app, '/save', {
      bot: 'mythos',
      messages: [
        { speaker_kind: 'user', text: 'fine', message_id: 'a' },
        { speaker_kind: 'user', text: 42, message_id: 'b' },
      ],
    });
    assert.equal(response.status, 400);
    assert.equal(response.json.error.code, 'validation_failed');
    assert.equal(response.json.error.field, 'messages[1].text');
    assert.match(response.json.error.message, /^messages\[1\]\.text: must be a string/);
    const recall = await post(app, '/retrieve', { bot: 'mythos' });
    assert.equal(recall.json.error.field, 'query_text');
  });

  test('an unknown bot is a 404 naming the field and the configured bots', async () => {
    const response = await post(await createApp(), '/retrieve', { bot: 'nobody', query_text: 'hi' });
    assert.equal(response.status, 404);
    assert.deepEqual(response.json, {
      error: {
        code: 'unknown_bot',
        message: 'bot: "nobody" is not configured; configured bots: mythos, other',
        field: 'bot',
      },
    });
  });
});

test('an unknown route is a 404 in the error envelope', async () => {
  const response = await (await createApp()).request('/nope', { method: 'POST' });
  assert.equal(response.status, 404);
  assert.deepEqual((await response.json()) as ErrorResponse, {
    error: { code: 'not_found', message: 'no route POST /nope; see docs/api.md for the API' },
  });
});

describe('without API keys (loopback only)', () => {
  let app: Awaited<ReturnType<typeof createApp>>;
  const recall = (headers: Record<string, string>) =>
    post(app, '/retrieve', { bot: 'mythos', query_text: 'hello' }, headers);

  test('a foreign Host (DNS rebinding) is refused; loopback names pass', async () => {
    app = await createApp();
    const foreign = await recall({ host: 'evil.example:3102' });
    assert.equal(foreign.status, 403);
    assert.equal(foreign.json.error.code, 'forbidden');
    assert.match(foreign.json.error.message, /host "evil\.example:3102"/);
    for (const host of ['localhost:3102', '127.0.0.1', '[::1]:3102']) {
      assert.equal((await recall({ host })).status, 200, host);
    }
  });

  test('a foreign Origin and `Origin: null` are refused; a loopback origin and no origin pass', async () => {
    app = await createApp();
    const foreign = await recall({ origin: 'http://evil.example' });
    assert.equal(foreign.status, 403);
    assert.match(foreign.json.error.message, /web origin "http:\/\/evil\.example"/);
    const opaque = await recall({ origin: 'null' });
    assert.equal(opaque.status, 403);
    assert.match(opaque.json.error.message, /origin "null"/);
    assert.equal((await recall({ origin: 'http://127.0.0.1:8000' })).status, 200);
    assert.equal((await recall({})).status, 200);
  });

  test('a refused page cannot save either, even with a body not declared JSON', async () => {
    app = await createApp();
    const refused = await post(app, '/save', JSON.stringify(window()), {
      origin: 'null',
      'content-type': 'text/plain',
    });
    assert.equal(refused.status, 403);
    assert.equal(fake?.wakes(), 0);
  });
});
