/**
 * @module The viewer's routes answer in their published order: an unknown bot (404), then a key without the
 * right (403), and only then a bad id, query or body (400, 415), so a key that may not edit or browse never
 * learns about its request's shape, nor makes the service read a body.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { testBot } from '../../config/test-support/test-bot.js';
import { createFakeServiceDeps, type FakeServiceDeps } from '../test-support/fake-service-deps.js';
import { discordKey, readerKey } from '../test-support/test-api-keys.js';

describe('viewer routes authorize before they parse', () => {
  let fake: FakeServiceDeps;
  before(async () => {
    fake = await createFakeServiceDeps({
      bots: [testBot('mythos'), testBot('other')],
      config: { apiKeys: [discordKey, readerKey] },
    });
  });
  after(() => fake.close());

  const put = (path: string, contentType: string, body: string) =>
    fake.app.request(path, {
      method: 'PUT',
      headers: { authorization: `Bearer ${readerKey.key}`, 'content-type': contentType },
      body,
    });

  test('a read-only key editing a point is refused (403) whatever its id or body', async () => {
    const answers = [
      await put('/bots/mythos/points/not-an-id/text', 'application/json', '{"text":"x"}'),
      await put('/bots/mythos/points/1/text', 'application/json', '{"text":""}'),
      await put('/bots/mythos/points/1/text', 'text/plain', 'hello'),
    ];
    assert.deepEqual(
      answers.map((answer) => answer.status),
      [403, 403, 403],
    );
  });

  test("a key for mythos browsing another bot's points is refused (403) before its limit is read", async () => {
    const answer = await fake.app.request('/bots/other/points?limit=abc', {
      headers: { authorization: `Bearer ${discordKey.key}` },
    });
    assert.equal(answer.status, 403);
    assert.equal(((await answer.json()) as { error: { code: string } }).error.code, 'forbidden');
  });
});
