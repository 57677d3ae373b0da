import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestService, type TestService } from '../service/test-support/start-test-service.js';

describe('without API keys, browser pages are refused', () => {
  let service: TestService;
  before(async () => {
    service = await startTestService();
  });
  after(() => service.close());

  const forget = (headers: Record<string, string>) =>
    service.app.request('/forget', {
      method: 'POST',
      headers,
      body: JSON.stringify({ bot: 'mythos', source: 'api' }),
    });

  test('`Origin: null` (sandboxed iframe, data: or file: page) is refused, with a JSON or a simple body', async () => {
    const saved = await service.post('/save', {
      bot: 'mythos',
      messages: [{ speaker_kind: 'user', text: 'I keep bees on the roof', message_id: 'null-origin-1' }],
    });
    assert.equal(saved.json.accepted, 1);
    for (const contentType of ['text/plain', 'application/json']) {
      const response = await forget({ origin: 'null', 'content-type': contentType });
      assert.equal(response.status, 403, contentType);
      const body = (await response.json()) as { error: { code: string; message: string } };
      assert.equal(body.error.code, 'forbidden');
      assert.match(body.error.message, /origin "null"/);
    }
    const again = await service.post('/save', {
      bot: 'mythos',
      messages: [{ speaker_kind: 'user', text: 'I keep bees on the roof', message_id: 'null-origin-1' }],
    });
    assert.deepEqual(
      again.json,
      { ok: true, accepted: 0, duplicates: 1, edited: 0, forgotten: 0 },
      'not forgotten',
    );
  });

  test('a loopback origin still passes', async () => {
    const response = await forget({ origin: 'http://localhost:8000', 'content-type': 'application/json' });
    assert.equal(response.status, 200);
  });
});
