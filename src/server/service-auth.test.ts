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
