/**
 * @module `/retrieve { person }` (docs/people.md): only memories where the person speaks, under their one name
 * (chunks of every linked account) or a persona of theirs; an unknown id or another bot's person is a 400.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { testBot } from '../config/test-support/test-bot.js';
import { createFakeServiceDeps, type FakeServiceDeps } from '../http/test-support/fake-service-deps.js';

const DAY = Date.UTC(2026, 10, 2, 9);

describe('/retrieve { person }', () => {
  let fake: FakeServiceDeps;
  const send = (method: string, path: string, body: unknown) =>
    fake.app.request(path, {
      method,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  // biome-ignore lint/suspicious/noExplicitAny: tests read response fields directly
  const call = async (method: string, path: string, body: unknown): Promise<any> => {
    const response = await send(method, path, body);
    assert.ok(response.status < 300, `${path}: ${response.status} ${await response.clone().text()}`);
    return response.json();
  };
  const recall = (bot: string, extra: object) =>
    send('POST', '/retrieve', {
      bot,
      query_text: 'lighthouses by the sea',
      score_threshold: -1,
      limit: 50,
      ...extra,
    });
  let anna: { id: string };
  let other: { id: string };

  before(async () => {
    fake = await createFakeServiceDeps({ bots: [testBot('mythos'), testBot('other')] });
    const save = (source: string, id: string, who: object, channel: string, offset: number) =>
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
            guild_id: `g-${channel}`,
            ...who,
          },
        ],
      });
    anna = await call('POST', '/bots/mythos/people', {
      name: 'Anna',
      accounts: [{ discord_user_id: '1234' }, { user_id: 'telegram:5678' }],
    });
    other = await call('POST', '/bots/other/people', { name: 'Otto', accounts: [{ user_id: 'x:1' }] });
    await save('discord', 'd-anna', { discord_user_id: '1234', speaker_name: 'anna_d' }, 'c1', 0);
    await save('hermes', 't-anna', { user_id: 'telegram:5678', speaker_name: 'Ann T' }, 'c2', 1);
    await save('discord', 'd-bob', { discord_user_id: '999', speaker_name: 'Bob' }, 'c3', 2);
    await fake.writer.runOnce({ flush: true });
  });
  after(() => fake.close());

  test('keeps the chunks of every linked account, and only those', async () => {
    const everyone = await recall('mythos', {});
    assert.equal(everyone.status, 200);
    const all = ((await everyone.json()) as { hits: { speakers: string }[] }).hits;
    assert.equal(all.length, 3);
    const response = await recall('mythos', { person: anna.id });
    assert.equal(response.status, 200);
    const { hits } = (await response.json()) as { hits: { channelId: string; speakers: string }[] };
    assert.deepEqual(hits.map((hit) => hit.channelId).sort(), ['c1', 'c2']);
    for (const hit of hits) assert.match(hit.speakers, /Anna/);
  });

  test('an unknown id, or a person of another bot, is a 400 naming person', async () => {
    for (const person of ['p_0000000000000000', other.id]) {
      const response = await recall('mythos', { person });
      assert.equal(response.status, 400);
      const body = (await response.json()) as { error: { field: string; message: string } };
      assert.equal(body.error.field, 'person');
      assert.match(body.error.message, /GET \/bots\/mythos\/people/);
    }
  });
});
