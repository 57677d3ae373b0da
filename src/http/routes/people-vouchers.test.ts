/**
 * @module `people.vouchers` decides which key sources vouch for which platforms' users: set, it replaces
 * today's default (Discord users by discord and hermes, others by hermes) for codes, redeems and DM recall.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ApiKeyConfig } from '../../config/config-types.js';
import { createJsonCaller } from '../test-support/call-json.js';
import { createFakeServiceDeps, type FakeServiceDeps } from '../test-support/fake-service-deps.js';
import { discordKey, hermesKey, ownerKey } from '../test-support/test-api-keys.js';

const telegramBotKey: ApiKeyConfig = {
  ...hermesKey,
  name: 'tg-bot',
  key: 'tg-bot-key-0123456789',
  sources: ['tg-bot'],
  source: 'tg-bot',
};

describe('people.vouchers', () => {
  let fake: FakeServiceDeps;
  const call = createJsonCaller(() => fake.app, ownerKey);
  const ask = (account: object, key: ApiKeyConfig) =>
    call('POST', '/bots/mythos/link-codes', { account }, key);

  before(async () => {
    fake = await createFakeServiceDeps({
      config: {
        apiKeys: [ownerKey, discordKey, hermesKey, telegramBotKey],
        people: { vouchers: { telegram: ['tg-bot'], discord: ['discord'] } },
      },
    });
  });
  after(() => fake.close());

  test('a platform listed vouches through the sources it lists, and no longer through the default ones', async () => {
    assert.equal((await ask({ user_id: 'telegram:1' }, telegramBotKey)).status, 201);
    const hermes = await ask({ user_id: 'telegram:1' }, hermesKey);
    assert.equal(hermes.status, 403);
    assert.match(hermes.json.error.message, /only a key acting as "tg-bot" may/);
    assert.equal((await ask({ discord_user_id: '1' }, discordKey)).status, 201);
    assert.equal((await ask({ discord_user_id: '1' }, hermesKey)).status, 403, 'hermes was the default only');
  });

  test('a platform not listed, with no "*", is for admin keys only', async () => {
    const slack = await ask({ user_id: 'slack:U1' }, hermesKey);
    assert.equal(slack.status, 403);
    assert.match(slack.json.error.message, /only an admin key may/);
    assert.equal((await ask({ user_id: 'slack:U1' }, ownerKey)).status, 201);
  });
});
