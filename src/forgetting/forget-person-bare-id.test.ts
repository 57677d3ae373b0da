/**
 * @module A person forget takes only that person's messages when a bare user id is shared: Anna (Discord user
 * 1234) and Bob (an HTTP app's own user id `1234`, linked as another person). Rows are read as the people
 * store reads them (`accountOfMessage`): a bare `1234` saved by Discord is Anna's, one saved elsewhere is the
 * bare account's (Bob's once he is linked; Anna's Hermes-on-Discord messages while nobody has that id).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ApiKeyConfig } from '../config/config-types.js';
import { createJsonCaller } from '../http/test-support/call-json.js';
import { createFakeServiceDeps, type FakeServiceDeps } from '../http/test-support/fake-service-deps.js';
import { discordKey, hermesKey, ownerKey } from '../http/test-support/test-api-keys.js';

describe('a person forget with a bare id shared by two people', () => {
  let fake: FakeServiceDeps;
  const call = createJsonCaller(() => fake.app, ownerKey);
  const save = async (key: ApiKeyConfig, id: string, extra: object, source?: string) => {
    const saved = await call(
      'POST',
      '/save',
      {
        bot: 'mythos',
        ...(source === undefined ? {} : { source }),
        messages: [{ message_id: id, speaker_kind: 'user', text: `${id} text`, ...extra }],
      },
      key,
    );
    assert.equal(saved.status, 200, JSON.stringify(saved.json));
  };
  const link = async (name: string, account: object) => {
    const made = await call('POST', '/bots/mythos/people', { name, accounts: [account] });
    assert.equal(made.status, 201, JSON.stringify(made.json));
    return made.json.id as string;
  };
  const forget = async (person: string) => {
    const forgot = await call('POST', '/forget', { bot: 'mythos', person });
    assert.equal(forgot.status, 200, JSON.stringify(forgot.json));
    return forgot.json.messages_forgotten as number;
  };

  before(async () => {
    fake = await createFakeServiceDeps({ config: { apiKeys: [ownerKey, discordKey, hermesKey] } });
  });
  after(() => fake.close());

  let anna = '';
  let bob = '';
  test("forgetting Anna (Discord 1234) leaves Bob's messages (an app's own user id 1234)", async () => {
    await save(discordKey, 'anna-discord', { discord_user_id: '1234' });
    await save(ownerKey, 'bob-app', { user_id: '1234', speaker_name: 'Bob' }, 'app');
    anna = await link('Anna', { discord_user_id: '1234' });
    bob = await link('Bob', { user_id: '1234' });
    assert.equal(await forget(anna), 1);
    assert.deepEqual((await fake.journal.botCounts('mythos')).bySource, { app: 1 });
  });

  test("forgetting Bob leaves Anna's messages saved by Discord's recorder", async () => {
    await save(discordKey, 'anna-discord-2', { discord_user_id: '1234' });
    assert.equal(await forget(bob), 1);
    assert.deepEqual((await fake.journal.botCounts('mythos')).bySource, { discord: 1 });
  });
});
