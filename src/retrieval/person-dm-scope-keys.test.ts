/**
 * @module A key widens a DM recall to a person's DMs only from that person's own DM and only for an account it
 * may vouch for: naming a linked person from a made-up channel, or with a key of another platform, reads
 * nothing more than without people (review of issue 33, C2).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ApiKeyConfig } from '../config/config-types.js';
import { testBot } from '../config/test-support/test-bot.js';
import { createFakeServiceDeps, type FakeServiceDeps } from '../http/test-support/fake-service-deps.js';
import { discordKey, hermesKey, ownerKey as owner, readerKey } from '../http/test-support/test-api-keys.js';

const DAY = Date.UTC(2026, 10, 2, 9);
const mcpKey: ApiKeyConfig = {
  ...hermesKey,
  name: 'mcp',
  key: 'mcp-key-0123456789',
  sources: ['mcp'],
  source: 'mcp',
};

describe('a DM recall widens only for the asker’s own DM, by a key that may vouch for them', () => {
  let fake: FakeServiceDeps;
  // biome-ignore lint/suspicious/noExplicitAny: tests read response fields directly
  const call = async (key: ApiKeyConfig, path: string, body: unknown): Promise<any> => {
    const response = await fake.app.request(path, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    assert.ok(response.status < 300, `${path}: ${response.status}`);
    return response.json();
  };
  const recallIn = async (key: ApiKeyConfig, extra: object) => {
    const body = {
      bot: 'mythos',
      query_text: 'lighthouses by the sea',
      score_threshold: -1,
      limit: 50,
      ...extra,
    };
    const answer = await call(key, '/retrieve', body);
    return (answer.hits as { channelId?: string }[]).map((hit) => hit.channelId ?? '-').sort();
  };

  before(async () => {
    fake = await createFakeServiceDeps({
      bots: [testBot('mythos', { retrieve: { limit: 5, scoreThreshold: 0.1, scope: 'dm-private' } })],
      config: { apiKeys: [owner, discordKey, readerKey, hermesKey, mcpKey] },
    });
    const save = (key: ApiKeyConfig, id: string, who: object, channel: string, offset: number) =>
      call(key, '/save', {
        bot: 'mythos',
        messages: [
          {
            message_id: id,
            speaker_kind: 'user',
            text: `${id}: I love lighthouses by the sea`,
            ts: DAY + offset,
            channel_id: channel,
            is_dm: true,
            ...who,
          },
        ],
      });
    await save(discordKey, 'd-anna', { discord_user_id: '1234' }, 'dm-anna', 0);
    await save(hermesKey, 't-anna', { user_id: 'telegram:5678' }, 'tg-anna', 1);
    await fake.writer.runOnce({ flush: true });
    await call(owner, '/bots/mythos/people', {
      name: 'Anna',
      accounts: [{ discord_user_id: '1234' }, { user_id: 'telegram:5678' }],
    });
  });
  after(() => fake.close());

  test('naming a linked person from a made-up DM channel reads none of their DMs', async () => {
    const madeUp = { is_dm: true, channel_id: 'made-up' };
    assert.deepEqual(await recallIn(readerKey, { ...madeUp, discord_user_id: '1234' }), []);
    assert.deepEqual(await recallIn(discordKey, { ...madeUp, discord_user_id: '1234' }), []);
    assert.deepEqual(await recallIn(hermesKey, { ...madeUp, user_id: 'telegram:5678' }), []);
  });

  test('a key of another platform, even in the right channel, is not widened', async () => {
    // That channel's own DM only, as for anyone (the channel is matched in any source, as before people).
    assert.deepEqual(
      await recallIn(mcpKey, { is_dm: true, channel_id: 'tg-anna', user_id: 'telegram:5678' }),
      ['tg-anna'],
    );
    assert.deepEqual(
      await recallIn(readerKey, { is_dm: true, channel_id: 'dm-anna', discord_user_id: '1234' }),
      ['dm-anna'],
    );
  });

  test('the person in their own DM, through their platform’s key, recalls all their DMs', async () => {
    const both = ['dm-anna', 'tg-anna'];
    assert.deepEqual(
      await recallIn(discordKey, { is_dm: true, channel_id: 'dm-anna', discord_user_id: '1234' }),
      both,
    );
    assert.deepEqual(
      await recallIn(hermesKey, { is_dm: true, channel_id: 'tg-anna', user_id: 'telegram:5678' }),
      both,
    );
  });
});
