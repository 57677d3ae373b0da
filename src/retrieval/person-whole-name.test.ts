/**
 * @module `/retrieve { person }` matches the person's whole name: "Anna" keeps the memories where Anna speaks,
 * not those of "Annabelle" or "JoAnna" (a name inside another), in chunk-only recall and in hybrid recall.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { testBot } from '../config/test-support/test-bot.js';
import { createJsonCaller } from '../http/test-support/call-json.js';
import { createFakeServiceDeps, type FakeServiceDeps } from '../http/test-support/fake-service-deps.js';
import { ownerKey } from '../http/test-support/test-api-keys.js';

const DAY = Date.UTC(2026, 10, 2, 9);

describe('/retrieve { person } matches whole names', () => {
  let fake: FakeServiceDeps;
  let anna: string;
  const call = createJsonCaller(() => fake.app, ownerKey);

  before(async () => {
    fake = await createFakeServiceDeps({ bots: [testBot('mythos')] });
    const save = async (id: string, userId: string, name: string, channel: string, offset: number) =>
      assert.equal(
        (
          await call('POST', '/save', {
            bot: 'mythos',
            source: 'hermes',
            messages: [
              {
                message_id: id,
                speaker_kind: 'user',
                text: `${id}: I love lighthouses by the sea`,
                ts: DAY + offset,
                user_id: userId,
                speaker_name: name,
                channel_id: channel,
                guild_id: `g-${channel}`,
              },
            ],
          })
        ).status,
        200,
      );
    anna = (
      await call('POST', '/bots/mythos/people', { name: 'Anna', accounts: [{ user_id: 'telegram:1' }] })
    ).json.id;
    await save('m-anna', 'telegram:1', 'Anna', 'c1', 0);
    await save('m-annabelle', 'telegram:2', 'Annabelle', 'c2', 1);
    await save('m-joanna', 'telegram:3', 'JoAnna', 'c3', 2);
    await fake.writer.runOnce({ flush: true });
  });
  after(() => fake.close());

  test('"Anna" keeps only the chunks where Anna speaks', async () => {
    const answer = await call('POST', '/retrieve', {
      bot: 'mythos',
      query_text: 'lighthouses by the sea',
      score_threshold: -1,
      limit: 10,
      person: anna,
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.json));
    assert.deepEqual(
      (answer.json.hits as { channelId: string }[]).map((hit) => hit.channelId),
      ['c1'],
    );
  });
});
