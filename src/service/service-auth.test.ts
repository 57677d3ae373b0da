import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { discordKey, readerKey } from '../http/test-support/test-api-keys.js';
import { startTestService, type TestService } from './test-support/start-test-service.js';
import { testBot } from '../config/test-support/test-bot.js';

describe('service API keys, end to end over a real port', () => {
  let service: TestService;
  before(async () => {
    service = await startTestService({
      bots: [testBot('mythos'), testBot('other')],
      config: { apiKeys: [discordKey, readerKey] },
    });
  });
  after(() => service.close());

  // 401, 403 and 413 are tested in-process (src/http/service-app.test.ts); this is what needs the whole service.
  test('health, readiness and metrics need no key; metrics count refused requests and query embeddings', async () => {
    const refused = await service.post('/save', {
      bot: 'mythos',
      messages: [{ speaker_kind: 'user', text: 'hi there', message_id: 'a-1' }],
    });
    assert.equal(refused.status, 401);
    const recall = await service.post(
      '/retrieve',
      { bot: 'other', query_text: 'hi' },
      { 'x-api-key': readerKey.key },
    );
    assert.equal(recall.status, 200);
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
