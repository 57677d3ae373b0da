import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ApiKeyConfig } from '../config/config-types.js';
import { startTestService, testBot, type TestService } from './test-support/start-test-service.js';

const discordKey: ApiKeyConfig = {
  name: 'discord-bot',
  key: 'discord-key-0123456789',
  bots: ['mythos'],
  sources: ['discord'],
  scopes: ['save', 'retrieve'],
  source: 'discord',
};
const readerKey: ApiKeyConfig = {
  name: 'reader',
  key: 'reader-key-0123456789',
  bots: '*',
  sources: '*',
  scopes: ['retrieve'],
};

describe('service API keys', () => {
  let service: TestService;
  before(async () => {
    service = await startTestService({
      bots: [testBot('mythos'), testBot('other')],
      config: {
        apiKeys: [discordKey, readerKey],
        limits: { maxBodyBytes: 4096, maxMessagesPerSave: 50, maxTextChars: 1000 },
      },
    });
  });
  after(() => service.close());

  const save = (headers: Record<string, string>, extra: Record<string, unknown> = {}) =>
    service.post(
      '/save',
      {
        bot: 'mythos',
        messages: [{ speaker_kind: 'user', text: 'hi there', message_id: `a-${Math.random()}` }],
        ...extra,
      },
      headers,
    );

  test('no key and a wrong key are 401; Bearer and x-api-key both work', async () => {
    assert.equal((await save({})).status, 401);
    assert.equal(
      (await save({ authorization: 'Bearer wrong-key-0123456789' })).json.error.code,
      'unauthorized',
    );
    assert.equal((await save({ authorization: `Bearer ${discordKey.key}` })).status, 200);
    assert.equal((await save({ 'x-api-key': discordKey.key })).status, 200);
  });

  test('a key is limited to its bots, sources and scopes (403)', async () => {
    const auth = { authorization: `Bearer ${discordKey.key}` };
    const otherBot = await save(auth, { bot: 'other' });
    assert.equal(otherBot.status, 403);
    assert.match(otherBot.json.error.message, /may not use the bot "other"/);
    const otherSource = await save(auth, { source: 'hermes' });
    assert.equal(otherSource.status, 403);
    assert.match(otherSource.json.error.message, /source "hermes"/);
    const reader = await save({ authorization: `Bearer ${readerKey.key}` });
    assert.equal(reader.status, 403);
    assert.match(reader.json.error.message, /does not have the save scope/);
    const recall = await service.post(
      '/retrieve',
      { bot: 'other', query_text: 'hi' },
      { 'x-api-key': readerKey.key },
    );
    assert.equal(recall.status, 200);
  });

  test("a source-scoped key's recall is not limited by its sources: it may filter by another source", async () => {
    const recall = await service.post(
      '/retrieve',
      { bot: 'mythos', query_text: 'hi', sources: ['hermes'] },
      { authorization: `Bearer ${discordKey.key}` },
    );
    assert.equal(recall.status, 200);
  });

  test('health, readiness and metrics need no key', async () => {
    for (const path of ['/health', '/ready', '/metrics']) {
      const response = await fetch(`${service.url}${path}`);
      assert.equal(response.status, 200, path);
    }
    const metrics = await (await fetch(`${service.url}/metrics`)).text();
    assert.match(metrics, /memory_pool_http_requests_total\{route="\/save",method="POST",status="401"\}/);
    assert.doesNotMatch(metrics, new RegExp(discordKey.key));
    assert.match(metrics, /memory_pool_embed_calls_total\{purpose="query",outcome="ok"\} [1-9]/);
    assert.match(metrics, /memory_pool_queue_depth\{kind="pending_messages"\} \d+/);
  });

  test('an oversized body is a 413 with the error envelope', async () => {
    const response = await save({ authorization: `Bearer ${discordKey.key}` }, { padding: 'x'.repeat(8000) });
    assert.equal(response.status, 413);
    assert.equal(response.json.error.code, 'body_too_large');
  });
});

describe('without API keys (loopback only)', () => {
  let service: TestService;
  before(async () => {
    service = await startTestService();
  });
  after(() => service.close());

  test('a foreign Host (DNS rebinding) or a web Origin is refused; loopback names pass', async () => {
    const body = JSON.stringify({ bot: 'mythos', query_text: 'hello' });
    const post = (headers: Record<string, string>) =>
      fetch(`${service.url}/retrieve`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      });
    // fetch will not let us set Host; a raw request over node:http does.
    const { request } = await import('node:http');
    const status = (headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        const url = new URL('/retrieve', service.url);
        const req = request(
          url,
          { method: 'POST', headers: { 'content-type': 'application/json', ...headers } },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    assert.equal(await status({ host: 'evil.example:3102' }), 403);
    assert.equal(await status({ host: `localhost:${new URL(service.url).port}` }), 200);
    assert.equal((await post({ origin: 'http://evil.example' })).status, 403);
    assert.equal((await post({ origin: 'http://127.0.0.1:8000' })).status, 200);
    assert.equal((await post({})).status, 200);
  });
});
