/**
 * @module A person forget reaches a linked Discord account wherever it was saved: the Hermes plugin running on
 * Discord saves `discord_user_id` under its own source, and both `POST /forget { person }` and the Discord
 * self-forget forget those messages too (a key lacking that source still gets the 403 naming it).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Principal } from '../auth/api-key-auth.js';
import type { ApiKeyConfig } from '../config/config-types.js';
import { createJsonCaller } from '../http/test-support/call-json.js';
import { createFakeServiceDeps, type FakeServiceDeps } from '../http/test-support/fake-service-deps.js';
import { discordKey, hermesKey, ownerKey } from '../http/test-support/test-api-keys.js';

const discordForget: ApiKeyConfig = {
  ...discordKey,
  name: 'discord-forget',
  key: 'discord-forget-0123456789',
  scopes: ['save', 'forget'],
};
const discordPrincipal: Principal = { kind: 'key', key: discordForget };

describe('a person forget of a Discord account saved by another source', () => {
  let fake: FakeServiceDeps;
  const call = createJsonCaller(() => fake.app, ownerKey);
  const save = async (key: ApiKeyConfig, id: string, extra: object) =>
    assert.equal(
      (
        await call(
          'POST',
          '/save',
          {
            bot: 'mythos',
            messages: [{ message_id: id, speaker_kind: 'user', text: `${id} text`, ...extra }],
          },
          key,
        )
      ).status,
      200,
    );
  const person = async (discordUserId: string) =>
    (
      await call('POST', '/bots/mythos/people', {
        name: `P${discordUserId}`,
        accounts: [{ discord_user_id: discordUserId }],
      })
    ).json.id as string;
  const remaining = async () => (await fake.journal.botCounts('mythos')).bySource;

  before(async () => {
    fake = await createFakeServiceDeps({ config: { apiKeys: [ownerKey, discordForget, hermesKey] } });
    await save(discordForget, 'd-1', { discord_user_id: '1234' });
    await save(hermesKey, 'h-1', { discord_user_id: '1234', channel_id: 'c1', guild_id: 'g1' });
    await save(discordForget, 'd-2', { discord_user_id: '2345' });
    await save(hermesKey, 'h-2', { discord_user_id: '2345', channel_id: 'c1', guild_id: 'g1' });
    await save(hermesKey, 'h-3', { discord_user_id: '9999', channel_id: 'c1', guild_id: 'g1' });
  });
  after(() => fake.close());

  test('POST /forget { person } forgets the Hermes-saved messages too, and needs the hermes source', async () => {
    const anna = await person('1234');
    const denied = await call('POST', '/forget', { bot: 'mythos', person: anna }, discordForget);
    assert.equal(denied.status, 403, JSON.stringify(denied.json));
    assert.match(denied.json.error.message, /"hermes"/);
    const forgot = await call('POST', '/forget', { bot: 'mythos', person: anna });
    assert.deepEqual([forgot.status, forgot.json.messages_forgotten], [200, 2]);
    assert.deepEqual(await remaining(), { discord: 1, hermes: 2 });
  });

  test("the Discord self-forget counts and forgets the person's Hermes-saved messages", async () => {
    await person('2345');
    const ops = fake.deps.operations;
    const counted = await ops.countOwnPerson(discordPrincipal, 'mythos', { discord_user_id: '2345' });
    assert.equal(counted?.total, 2);
    await ops.forgetOwnPerson(discordPrincipal, 'mythos', { discord_user_id: '2345' });
    assert.deepEqual(await remaining(), { hermes: 1 }, "only h-3 (someone else's) stays");
  });
});
