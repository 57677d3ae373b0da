/**
 * @module A DM is a channel of one platform: two platforms' DM channel ids can be equal (a Telegram chat id and
 * another client's), so a DM recall through a key of one source keeps only that source's DM, never the other
 * platform's; a key of every source (or no keys at all) matches the channel as before.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { testBot } from '../config/test-support/test-bot.js';
import { createJsonCaller } from '../http/test-support/call-json.js';
import { createFakeServiceDeps, type FakeServiceDeps } from '../http/test-support/fake-service-deps.js';
import { discordKey, hermesKey, ownerKey } from '../http/test-support/test-api-keys.js';

describe('the DM scope matches the source and the channel', () => {
  let fake: FakeServiceDeps;
  const call = createJsonCaller(() => fake.app, ownerKey);
  const recallIn = async (key: typeof ownerKey) => {
    const answer = await call(
      'POST',
      '/retrieve',
      { bot: 'mythos', query_text: 'my secret garden', score_threshold: -1, channel_id: '5678', is_dm: true },
      key,
    );
    assert.equal(answer.status, 200, JSON.stringify(answer.json));
    return (answer.json.hits as { text: string }[]).map((hit) => /(\w+-dm)/.exec(hit.text)?.[1]).sort();
  };

  before(async () => {
    fake = await createFakeServiceDeps({
      bots: [testBot('mythos', { retrieve: { limit: 5, scoreThreshold: 0.1, scope: 'dm-private' } })],
      config: { apiKeys: [ownerKey, discordKey, hermesKey] },
    });
    for (const [key, id] of [
      [discordKey, 'discord-dm'],
      [hermesKey, 'hermes-dm'],
    ] as const) {
      const saved = await call(
        'POST',
        '/save',
        {
          bot: 'mythos',
          messages: [
            {
              message_id: id,
              speaker_kind: 'user',
              text: `${id}: my secret garden`,
              user_id: `${id}-user`,
              channel_id: '5678',
              is_dm: true,
            },
          ],
        },
        key,
      );
      assert.equal(saved.status, 200, JSON.stringify(saved.json));
    }
    await fake.writer.runOnce({ flush: true });
  });
  after(() => fake.close());

  test("a key of one source recalls its own DM with that channel id, not another platform's", async () => {
    assert.deepEqual(await recallIn(hermesKey), ['hermes-dm']);
    assert.deepEqual(await recallIn(discordKey), ['discord-dm']);
  });

  test('a key of every source matches the channel in any source, as before', async () => {
    assert.deepEqual(await recallIn(ownerKey), ['discord-dm', 'hermes-dm']);
  });
});
