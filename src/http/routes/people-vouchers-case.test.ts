/**
 * @module `people.vouchers` platforms are matched in any case: `Telegram: [tg-bot]` restricts `telegram:…` users
 * (and an account spelled `Telegram:…`) to the tg-bot key, as `Discord` always meant discord.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { ApiKeyConfig } from '../../config/config-types.js';
import { createJsonCaller } from '../test-support/call-json.js';
import { createFakeServiceDeps, type FakeServiceDeps } from '../test-support/fake-service-deps.js';
import { hermesKey, ownerKey } from '../test-support/test-api-keys.js';

const tgKey: ApiKeyConfig = {
  ...hermesKey,
  name: 'tg-bot',
  key: 'tg-bot-key-0123456789',
  sources: ['tg-bot'],
  source: 'tg-bot',
};
let fake: FakeServiceDeps;
const call = createJsonCaller(() => fake.app, ownerKey);
const ask = (userId: string, key: ApiKeyConfig) =>
  call('POST', '/bots/mythos/link-codes', { account: { user_id: userId } }, key);

before(async () => {
  fake = await createFakeServiceDeps({
    config: {
      apiKeys: [ownerKey, hermesKey, tgKey],
      people: { vouchers: { Telegram: ['tg-bot'], discord: ['discord'], '*': ['hermes'] } },
    },
  });
});
after(() => fake.close());

test('"Telegram" in people.vouchers restricts Telegram users to tg-bot, however the account spells it', async () => {
  for (const userId of ['telegram:5678', 'Telegram:5679']) {
    const [byHermes, byTg] = [await ask(userId, hermesKey), await ask(userId, tgKey)];
    assert.deepEqual(
      [byHermes.status, byTg.status],
      [403, 201],
      `${userId}: ${JSON.stringify(byHermes.json)}`,
    );
  }
});
