import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createFakeServiceDeps, type FakeServiceDeps } from './test-support/fake-service-deps.js';

describe('without API keys, browser pages are refused', () => {
  let fake: FakeServiceDeps;
  before(async () => {
    fake = await createFakeServiceDeps();
  });
  after(() => fake.close());

  const forget = (headers: Record<string, string>) =>
    fake.app.request('/forget', {
      method: 'POST',
      headers,
      body: JSON.stringify({ bot: 'mythos', source: 'api' }),
    });

  const save = async (body: unknown) => {
    const response = await fake.app.request('/save', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { json: (await response.json()) as Record<string, unknown> };
  };

  test('`Origin: null` (sandboxed iframe, data: or file: page) is refused, with a JSON or a simple body', async () => {
    const saved = await save({
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
    const again = await save({
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
