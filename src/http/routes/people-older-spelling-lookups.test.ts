/**
 * @module An account stored in an older spelling (`Discord:557`, as an older build's replica or a restore writes it
 * while the service runs) is found by today's spelling at once, not only after a restart respells it: a redeem
 * joins its person instead of making a second one, the chunk writer writes its messages under the person's name,
 * and a person forget reaches them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { testBot } from '../../config/test-support/test-bot.js';
import { createJsonCaller } from '../test-support/call-json.js';
import { createFakeServiceDeps, type FakeServiceDeps } from '../test-support/fake-service-deps.js';
import { discordKey, hermesKey, ownerKey } from '../test-support/test-api-keys.js';

describe('lookups of an account stored in an older spelling, without a restart', () => {
  let fake: FakeServiceDeps;
  const call = createJsonCaller(() => fake.app, ownerKey);
  const store = (id: string, name: string, value: string) =>
    fake.journal.people.create(
      'mythos',
      { id, name, accounts: [{ kind: 'user', value }] },
      Date.now() - 5000,
    );
  const saveFrom = (discordId: string, text: string) =>
    call(
      'POST',
      '/save',
      {
        bot: 'mythos',
        messages: [
          {
            message_id: `${discordId}-${text.length}`,
            speaker_kind: 'user',
            speaker_name: 'fay_d',
            discord_user_id: discordId,
            channel_id: `c${discordId}`,
            text,
            ts: Date.now(),
          },
        ],
      },
      discordKey,
    );

  before(async () => {
    fake = await createFakeServiceDeps({
      bots: [testBot('mythos')],
      config: { apiKeys: [ownerKey, discordKey, hermesKey] },
    });
  });
  after(() => fake.close());

  test('a redeem from the account joins the person it is stored under', async () => {
    await store('old1', 'Fay', 'Discord:557');
    const asked = await call(
      'POST',
      '/bots/mythos/link-codes',
      { account: { discord_user_id: '557' } },
      discordKey,
    );
    const redeemed = await call(
      'POST',
      '/bots/mythos/link-codes/redeem',
      { code: asked.json.code, account: { user_id: 'telegram:557' } },
      hermesKey,
    );
    assert.equal(redeemed.status, 200, JSON.stringify(redeemed.json));
    assert.deepEqual([redeemed.json.id, redeemed.json.name], ['old1', 'Fay']);
    const people = (await call('GET', '/bots/mythos/people')).json.people as { id: string }[];
    assert.deepEqual(
      people.map((p) => p.id),
      ['old1'],
      'one person, not a second one for discord:557',
    );
  });

  test("the chunk writer writes the account's messages under the person's name", async () => {
    await store('old2', 'Gus', ' discord : 558');
    assert.equal(
      (await saveFrom('558', 'the harbour lights were green that night, I remember it well')).status,
      200,
    );
    await fake.writer.runOnce({ flush: true });
    const texts = fake.store.heldPoints('mem_mythos').map((p) => String(p.payload.text));
    assert.ok(
      texts.some((t) => t.includes('Gus: the harbour lights')),
      texts.join('\n---\n'),
    );
  });

  test("a person forget reaches the account's messages saved by Discord's recorder", async () => {
    await store('old3', 'Hal', 'DISCORD:559');
    assert.equal((await saveFrom('559', 'my sister lives in the blue house by the mill pond')).status, 200);
    await fake.writer.runOnce({ flush: true });
    const forgot = await call('POST', '/forget', { bot: 'mythos', person: 'old3' });
    assert.equal(forgot.status, 200, JSON.stringify(forgot.json));
    await fake.writer.runOnce({ flush: true });
    const texts = fake.store.heldPoints('mem_mythos').map((p) => String(p.payload.text));
    assert.ok(!texts.some((t) => t.includes('mill pond')), texts.join('\n---\n'));
  });
});
