/**
 * @module The viewer's person filter (`GET /bots/{bot}/points?person=`, and the bulk forget's selection): the
 * points where the person speaks, as `/retrieve { person }` selects them (their one name across linked accounts,
 * and their persona's SillyTavern points), with the other filters and the total; an unknown id is a 400.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { testBot } from '../config/test-support/test-bot.js';
import { createFakeServiceDeps, type FakeServiceDeps } from '../http/test-support/fake-service-deps.js';
import type { ForgetSelectionResponse, TimelinePageResponse } from '../wire/viewer.js';

const DAY = Date.UTC(2026, 10, 2, 9);

// biome-ignore lint/suspicious/noExplicitAny: tests read response fields directly
type Answer = { status: number; json: any };

describe("the viewer's timeline filtered by person", () => {
  let fake: FakeServiceDeps;
  let anna = '';
  let otto = '';
  const call = async (method: string, path: string, body?: unknown): Promise<Answer> => {
    const response = await fake.app.request(path, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, json: await response.json() };
  };
  const timeline = async (query: string) => {
    const answer = await call('GET', `/bots/mythos/points?limit=50${query}`);
    assert.equal(answer.status, 200, JSON.stringify(answer.json));
    const page = answer.json as TimelinePageResponse;
    return { texts: page.points.map((p) => p.text).sort(), total: page.total };
  };

  before(async () => {
    fake = await createFakeServiceDeps({ bots: [testBot('mythos'), testBot('other')] });
    const save = async (source: string, id: string, who: object, text: string, offset: number) => {
      const saved = await call('POST', '/save', {
        bot: 'mythos',
        source,
        messages: [
          { message_id: id, speaker_kind: 'user', text, ts: DAY + offset, channel_id: `c-${id}`, ...who },
        ],
      });
      assert.equal(saved.status, 200, JSON.stringify(saved.json));
    };
    const created = await call('POST', '/bots/mythos/people', {
      name: 'Anna',
      accounts: [{ discord_user_id: '1234' }, { user_id: 'telegram:5678' }, { persona: 'Lena' }],
    });
    anna = created.json.id;
    otto = (await call('POST', '/bots/other/people', { name: 'Otto', accounts: [{ user_id: 'x:1' }] })).json
      .id;
    await save(
      'discord',
      'd-anna',
      { discord_user_id: '1234', speaker_name: 'anna_d' },
      'I paint harbours',
      0,
    );
    await save('hermes', 't-anna', { user_id: 'telegram:5678', speaker_name: 'Ann T' }, 'I swim at dawn', 1);
    await save('discord', 'd-sam', { discord_user_id: '999', speaker_name: 'Sam' }, 'I fix bicycles', 2);
    await fake.writer.runOnce({ flush: true });
    // SillyTavern's own points (no source), one by Anna's persona and one by someone else's.
    const vector = Array.from({ length: 16 }, (_, i) => (i === 0 ? 1 : 0));
    await fake.store.upsertPoints('mem_mythos', [
      {
        id: 1,
        vector,
        payload: { text: 'Lena: I grow tomatoes', speakers: 'Lena, Mythos', timestamp: DAY + 3 },
      },
      { id: 2, vector, payload: { text: 'Bob: I sail', speakers: 'Bob, Mythos', timestamp: DAY + 4 } },
    ]);
  });
  after(() => fake.close());

  test('keeps the points where the person speaks, on every account and as their persona', async () => {
    assert.equal((await timeline('')).total, 5);
    const { texts, total } = await timeline(`&person=${anna}`);
    assert.equal(total, 3);
    assert.equal(texts.length, 3);
    assert.match(texts.join('\n'), /Anna: I paint harbours/);
    assert.match(texts.join('\n'), /Anna: I swim at dawn/);
    assert.match(texts.join('\n'), /Lena: I grow tomatoes/);
    assert.doesNotMatch(texts.join('\n'), /bicycles|sail/);
  });

  test('narrows with the other filters, a page at a time', async () => {
    assert.deepEqual(await timeline(`&person=${anna}&kind=sillytavern`), {
      texts: ['Lena: I grow tomatoes'],
      total: 1,
    });
    const first = await call('GET', `/bots/mythos/points?limit=2&person=${anna}`);
    const second = await call(
      'GET',
      `/bots/mythos/points?limit=2&person=${anna}&cursor=${first.json.next_cursor}`,
    );
    assert.equal(first.json.points.length + second.json.points.length, 3);
    assert.equal(second.json.next_cursor, null);
  });

  test("a bulk forget of the filtered view selects only that person's points", async () => {
    const answer = await call('GET', `/bots/mythos/forget-selection?person=${anna}`);
    assert.equal(answer.status, 200, JSON.stringify(answer.json));
    const selection = answer.json as ForgetSelectionResponse;
    assert.deepEqual([...selection.message_ids].sort(), ['d-anna', 't-anna']);
    assert.deepEqual(selection.unsourced_point_ids, [1]);
  });

  test("an unknown id, another bot's person or a NUL is a 400 naming person", async () => {
    for (const person of ['p_0000000000000000', otto, 'p_%00']) {
      for (const path of ['points', 'forget-selection']) {
        const answer = await call('GET', `/bots/mythos/${path}?person=${person}`);
        assert.equal(answer.status, 400, `${path} ${person}: ${JSON.stringify(answer.json)}`);
        assert.equal(answer.json.error.field, 'person');
      }
    }
  });
});
