/**
 * @module A person forget when two people hold one account in two spellings (Zed `Discord:560` from an older
 * replica or a restore, Bob `discord:560`, the state start-up leaves and warns about): forgetting Zed never
 * deletes Bob's messages, which today's spelling names.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testBot } from '../config/test-support/test-bot.js';
import { createJsonCaller } from '../http/test-support/call-json.js';
import { createFakeServiceDeps, type FakeServiceDeps } from '../http/test-support/fake-service-deps.js';
import { discordKey, ownerKey } from '../http/test-support/test-api-keys.js';

let fake: FakeServiceDeps;
const call = createJsonCaller(() => fake.app, ownerKey);
before(async () => {
  fake = await createFakeServiceDeps({
    bots: [testBot('mythos')],
    config: { apiKeys: [ownerKey, discordKey] },
  });
});
after(() => fake.close());

test("forgetting the older spelling's holder keeps the messages of the person holding today's spelling", async () => {
  const user = (value: string) => ({ kind: 'user' as const, value });
  await fake.journal.people.create('mythos', { id: 'bob', name: 'Bob', accounts: [user('discord:560')] }, 1);
  await fake.journal.people.create('mythos', { id: 'zed', name: 'Zed', accounts: [user('Discord:560')] }, 1);
  assert.equal((await fake.journal.people.personOf('mythos', user('discord:560')))?.id, 'bob');
  const message = { speaker_kind: 'user', speaker_name: 'bob_d', discord_user_id: '560', channel_id: 'c560' };
  const saved = await call(
    'POST',
    '/save',
    {
      bot: 'mythos',
      messages: [
        { ...message, message_id: 'b1', text: 'the orchard floods every spring', ts: Date.UTC(2026, 0, 2) },
      ],
    },
    discordKey,
  );
  assert.equal(saved.status, 200, JSON.stringify(saved.json));
  await fake.writer.runOnce({ flush: true });
  const forgot = await call('POST', '/forget', { bot: 'mythos', person: 'zed' });
  assert.equal(forgot.status, 200, JSON.stringify(forgot.json));
  assert.equal(forgot.json.messages_forgotten, 0);
  await fake.writer.runOnce({ flush: true });
  const texts = fake.store.heldPoints('mem_mythos').map((p) => String(p.payload.text));
  assert.ok(
    texts.some((t) => t.includes('the orchard floods')),
    texts.join('|'),
  );
});
