/**
 * @module DM privacy follows the person (docs/people.md): asked in a Telegram DM by a linked person, recall sees
 * their Discord DM too and never another person's; with nobody linked it answers exactly as before.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { testBot } from '../config/test-support/test-bot.js';
import { createFakeServiceDeps, type FakeServiceDeps } from '../http/test-support/fake-service-deps.js';

const DAY = Date.UTC(2026, 10, 2, 9);

describe('a DM recall by a linked person', () => {
  let fake: FakeServiceDeps;
  // biome-ignore lint/suspicious/noExplicitAny: tests read response fields directly
  const call = async (method: string, path: string, body: unknown): Promise<any> => {
    const response = await fake.app.request(path, {
      method,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    assert.ok(response.status < 300, `${path}: ${response.status}`);
    return response.json();
  };
  /** Every point the scope lets through (threshold -1), by channel. */
  const recallIn = async (extra: object) => {
    const answer = await call('POST', '/retrieve', {
      bot: 'mythos',
      query_text: 'lighthouses by the sea',
      score_threshold: -1,
      limit: 50,
      ...extra,
    });
    return (answer.hits as { channelId?: string }[]).map((hit) => hit.channelId ?? '-').sort();
  };
  const telegramDm = { channel_id: 'tg-anna', is_dm: true };

  before(async () => {
    fake = await createFakeServiceDeps({
      bots: [testBot('mythos', { retrieve: { limit: 5, scoreThreshold: 0.1, scope: 'dm-private' } })],
    });
    const save = (source: string, id: string, who: object, channel: string, isDm: boolean, offset: number) =>
      call('POST', '/save', {
        bot: 'mythos',
        source,
        messages: [
          {
            message_id: id,
            speaker_kind: 'user',
            text: `${id}: I love lighthouses by the sea`,
            ts: DAY + offset,
            channel_id: channel,
            is_dm: isDm,
            ...who,
          },
        ],
      });
    await save('discord', 'd-anna', { discord_user_id: '1234' }, 'dm-anna', true, 0);
    await save('discord', 'd-bob', { discord_user_id: '999' }, 'dm-bob', true, 1);
    await save('discord', 'd-public', { discord_user_id: '999', guild_id: 'g1' }, 'general', false, 2);
    await save('hermes', 't-anna', { user_id: 'telegram:5678' }, 'tg-anna', true, 3);
    await fake.writer.runOnce({ flush: true });
  });
  after(() => fake.close());

  test('unlinked, naming the asker changes nothing: only this DM and the shared memories', async () => {
    const plain = await recallIn(telegramDm);
    assert.deepEqual(plain, ['general', 'tg-anna']);
    assert.deepEqual(await recallIn({ ...telegramDm, user_id: 'telegram:5678' }), plain);
  });

  test('linked, the Telegram DM recalls the Discord DM of the same person, never another person’s; unlinked, no more', async () => {
    const anna = await call('POST', '/bots/mythos/people', {
      name: 'Anna',
      accounts: [{ discord_user_id: '1234' }, { user_id: 'telegram:5678' }],
    });
    assert.deepEqual(await recallIn({ ...telegramDm, user_id: 'telegram:5678' }), [
      'dm-anna',
      'general',
      'tg-anna',
    ]);
    // From Discord, the same person sees her Telegram DM; Bob, in his DM, sees only his.
    assert.deepEqual(await recallIn({ channel_id: 'dm-anna', is_dm: true, discord_user_id: '1234' }), [
      'dm-anna',
      'general',
      'tg-anna',
    ]);
    assert.deepEqual(await recallIn({ channel_id: 'dm-bob', is_dm: true, discord_user_id: '999' }), [
      'dm-bob',
      'general',
    ]);
    // Outside a DM, naming Anna widens nothing.
    assert.deepEqual(await recallIn({ channel_id: 'general', guild_id: 'g1', discord_user_id: '1234' }), [
      'general',
    ]);
    const response = await fake.app.request(`/bots/mythos/people/${anna.id}`, { method: 'DELETE' });
    assert.equal(response.status, 200);
    assert.deepEqual(await recallIn({ ...telegramDm, user_id: 'telegram:5678' }), ['general', 'tg-anna']);
  });
});
