/**
 * @module Two people holding one account in two spellings (Zed `Discord:561` from an older replica or a restore,
 * Bob `discord:561`, the state start-up leaves and warns about): the messages of Discord user 561 are Bob's, in
 * whichever order the people are listed: written under Bob's name, in Bob's DM scope and `dmWith`, never Zed's.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testBot } from '../config/test-support/test-bot.js';
import { createJsonCaller } from '../http/test-support/call-json.js';
import { createFakeServiceDeps, type FakeServiceDeps } from '../http/test-support/fake-service-deps.js';
import { discordKey, ownerKey } from '../http/test-support/test-api-keys.js';

const discordBothBots = { ...discordKey, bots: ['mythos', 'orpheus'] };
import { readPersonDms } from './read-person-dms.js';

let fake: FakeServiceDeps;
const call = createJsonCaller(() => fake.app, ownerKey);
before(async () => {
  fake = await createFakeServiceDeps({
    bots: [testBot('mythos'), testBot('orpheus')],
    config: { apiKeys: [ownerKey, discordBothBots] },
  });
});
after(() => fake.close());

const user = (value: string) => ({ kind: 'user' as const, value });

// Bob listed first in one bot, Zed first in the other (people are listed by id).
for (const [bot, bobId, zedId] of [
  ['mythos', 'a-bob', 'z-zed'],
  ['orpheus', 'z-bob', 'a-zed'],
] as const) {
  test(`${bot}: Discord user 561's DM is Bob's, not the older spelling's holder's`, async () => {
    await fake.journal.people.create(bot, { id: bobId, name: 'Bob', accounts: [user('discord:561')] }, 1);
    await fake.journal.people.create(bot, { id: zedId, name: 'Zed', accounts: [user('Discord:561')] }, 1);
    const message = { speaker_kind: 'user', speaker_name: 'bob_d', discord_user_id: '561', is_dm: true };
    const saved = await call(
      'POST',
      '/save',
      {
        bot,
        messages: [
          { ...message, message_id: 'b1', channel_id: 'c561', text: 'the orchard floods', ts: 1e12 },
        ],
      },
      discordBothBots,
    );
    assert.equal(saved.status, 200, JSON.stringify(saved.json));
    await fake.writer.runOnce({ flush: true });
    const points = fake.store.heldPoints(`mem_${bot}`);
    const texts = points.map((p) => String(p.payload.text));
    assert.ok(
      texts.some((t) => t.includes('Bob: the orchard floods')),
      texts.join('|'),
    );
    assert.ok(!texts.some((t) => t.includes('Zed')), texts.join('|'));
    assert.deepEqual(
      points.map((p) => p.payload.dmWith),
      [`person:${bobId}`],
    );
    const zed = await readPersonDms(fake.journal, bot, user('Discord:561'));
    assert.deepEqual(zed?.person, []);
    assert.ok(!zed?.dmWith?.includes('account:discord:561'), JSON.stringify(zed?.dmWith));
    const bob = await readPersonDms(fake.journal, bot, user('discord:561'));
    assert.deepEqual(bob?.person, [{ source: 'discord', channelId: 'c561' }]);
  });
}
