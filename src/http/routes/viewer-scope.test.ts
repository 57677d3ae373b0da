import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestService, type TestService } from '../../service/test-support/start-test-service.js';
import { testBot } from '../../config/test-support/test-bot.js';

const KEY = 'viewer-scope-key-1234567890abcdef';

describe('viewer routes and a private recall scope', () => {
  let service: TestService;
  const get = (path: string, key: string) =>
    service.app.request(path, { headers: { authorization: `Bearer ${key}` } });
  before(async () => {
    service = await startTestService({
      bots: [testBot('mythos', { retrieve: { limit: 5, scoreThreshold: 0, scope: 'dm-private' } })],
      config: {
        apiKeys: [
          { name: 'reader', key: `${KEY}-r`, scopes: ['retrieve', 'forget'], bots: '*', sources: '*' },
          { name: 'admin', key: `${KEY}-a`, scopes: ['admin'], bots: '*', sources: '*' },
        ],
      },
    });
  });
  after(() => service.close());

  test('a retrieve key cannot browse a dm-private bot (403 naming the scope); an admin key can', async () => {
    for (const path of [
      '/bots/mythos/points?dm=only',
      '/bots/mythos/points/1',
      '/bots/mythos/forget-selection',
    ]) {
      const answer = await get(path, `${KEY}-r`);
      assert.equal(answer.status, 403, path);
      assert.match(((await answer.json()) as { error: { message: string } }).error.message, /dm-private/);
    }
    assert.equal((await get('/bots/mythos/points', `${KEY}-a`)).status, 200);
  });
});
