/**
 * @module With nobody linked, a DM recall answers as before people existed (issue 33): the DM's channel is
 * matched in any source, so the owner's import of a Telegram DM's older history (source `import`) is recalled
 * by the Hermes plugin's key in that DM, and every key asking from a channel id sees that channel's DM points.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { testBot } from '../config/test-support/test-bot.js';
import { createJsonCaller } from '../http/test-support/call-json.js';
import { createFakeServiceDeps, type FakeServiceDeps } from '../http/test-support/fake-service-deps.js';
import { discordKey, hermesKey, ownerKey } from '../http/test-support/test-api-keys.js';

describe('a DM recall with nobody linked', () => {
  let fake: FakeServiceDeps;
  const call = createJsonCaller(() => fake.app, ownerKey);
  const recallIn = async (key: typeof ownerKey, who: Record<string, string> = {}) => {
    const answer = await call(
      'POST',
      '/retrieve',
      {
        bot: 'mythos',
        query_text: 'my secret garden',
        score_threshold: -1,
        channel_id: '5678',
        is_dm: true,
        ...who,
      },
      key,
    );
    assert.equal(answer.status, 200, JSON.stringify(answer.json));
    return (answer.json.hits as { text: string }[])
      .map((hit) => /(imported|live):/.exec(hit.text)?.[1])
      .sort();
  };
  const saveDm = async (key: typeof ownerKey, id: string, source?: string) => {
    const saved = await call(
      'POST',
      '/save',
      {
        bot: 'mythos',
        ...(source === undefined ? {} : { source }),
        messages: [
          {
            message_id: id,
            speaker_kind: 'user',
            text: `${id}: my secret garden`,
            user_id: 'telegram:5678',
            channel_id: '5678',
            is_dm: true,
          },
        ],
      },
      key,
    );
    assert.equal(saved.status, 200, JSON.stringify(saved.json));
  };

  before(async () => {
    fake = await createFakeServiceDeps({
      bots: [testBot('mythos', { retrieve: { limit: 5, scoreThreshold: 0.1, scope: 'dm-private' } })],
      config: { apiKeys: [ownerKey, discordKey, hermesKey] },
    });
    await saveDm(ownerKey, 'imported', 'import');
    await saveDm(hermesKey, 'live');
    await fake.writer.runOnce({ flush: true });
  });
  after(() => fake.close());

  test('the Hermes key recalls the imported history of the DM it asks in, and its own', async () => {
    assert.deepEqual(await recallIn(hermesKey, { user_id: 'telegram:5678' }), ['imported', 'live']);
  });

  test('any key asking from that channel id sees the same DM points, as before people', async () => {
    assert.deepEqual(await recallIn(discordKey), ['imported', 'live']);
    assert.deepEqual(await recallIn(ownerKey), ['imported', 'live']);
  });
});
