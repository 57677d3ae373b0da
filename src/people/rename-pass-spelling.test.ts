/**
 * @module The rename pass and accounts stored in an older spelling (`Discord:555`, as an older build's replica, a
 * restore or a `journal copy` writes them while serve runs), on both journal backends: a change of the person
 * renames the chunks of the messages sent under today's spelling, and never the chunks of another person who holds
 * today's spelling exactly (the pass's queries list chunks without that rule; the rewrite names them by it).
 */
// npm test: alone (starts Postgres, through describeOnBothJournals)
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { testBot } from '../config/test-support/test-bot.js';
import {
  describeOnBothJournals,
  type OpenJournal,
  type PeopleService,
  startPeopleService,
} from './test-support/people-service.js';

const DAY = Date.UTC(2026, 10, 2, 9);
const user = (value: string) => ({ kind: 'user' as const, value });

/** As the Discord recorder saves a DM from Discord user `id` (the bare snowflake: account `discord:<id>`). */
const saveDiscordDm = (s: PeopleService, id: string, text: string) =>
  s.call('POST', '/save', {
    bot: 'mythos',
    source: 'discord',
    messages: [
      {
        message_id: `m-${id}`,
        speaker_kind: 'user',
        speaker_name: `user_${id}`,
        discord_user_id: id,
        channel_id: `dm-${id}`,
        is_dm: true,
        text,
        ts: DAY,
      },
    ],
  });

/** The stored point holding `text`: its chunk text and `dmWith`. */
function pointWith(s: PeopleService, text: string): { text: string; dmWith: unknown } {
  const point = s.store.heldPoints('mem_mythos').find((p) => String(p.payload.text).includes(text));
  assert.ok(point !== undefined, `a point holds "${text}"`);
  return { text: String(point.payload.text), dmWith: point.payload.dmWith };
}

function defineCases(open: OpenJournal): void {
  test('a person holding an older spelling: a change of it renames the chunks of today’s spelling', {
    timeout: 30_000,
  }, async () => {
    const journal = await open();
    const s = await startPeopleService(journal, testBot('mythos'));
    try {
      await saveDiscordDm(s, '555', 'the lighthouse at dusk');
      await s.writer.runOnce({ flush: true });
      assert.match(pointWith(s, 'lighthouse').text, /user_555: the lighthouse at dusk/);
      // Linked as an older replica writes it (the API would respell it `discord:555`; that replica's runner, not
      // this one, is woken), then renamed here: this pass takes both requests.
      await journal.people.create(
        'mythos',
        { id: 'p_anna', name: 'Anna', accounts: [user('Discord:555')] },
        Date.now(),
      );
      await s.call('PATCH', '/bots/mythos/people/p_anna', { name: 'Anne' });
      await s.finishRenames();
      assert.equal(pointWith(s, 'lighthouse').dmWith, 'person:p_anna');
      assert.match(pointWith(s, 'lighthouse').text, /Anne: the lighthouse at dusk/);
    } finally {
      await s.close();
    }
  });

  test('renaming the older spelling’s holder leaves the chunks of the person holding today’s spelling', {
    timeout: 30_000,
  }, async () => {
    const journal = await open();
    const s = await startPeopleService(journal, testBot('mythos'));
    try {
      const bob = await s.call('POST', '/bots/mythos/people', {
        name: 'Bob',
        accounts: [{ discord_user_id: '561' }],
      });
      await journal.people.create(
        'mythos',
        { id: 'p_zed', name: 'Zed', accounts: [user('Discord:561')] },
        Date.now(),
      );
      await saveDiscordDm(s, '561', 'the orchard floods');
      await s.writer.runOnce({ flush: true });
      assert.match(pointWith(s, 'orchard').text, /Bob: the orchard floods/);
      // Zed's change asks for the chunks of `Discord:561` and of today's `discord:561`: Bob's is rewritten as Bob's.
      await s.call('PATCH', '/bots/mythos/people/p_zed', { name: 'Zedd' });
      await s.finishRenames();
      assert.match(pointWith(s, 'orchard').text, /Bob: the orchard floods/);
      assert.equal(pointWith(s, 'orchard').dmWith, `person:${bob.id}`);
      // Bob unlinked, nobody holds today's spelling exactly: Zed's older spelling reaches the message.
      await s.call('DELETE', `/bots/mythos/people/${bob.id}`);
      await s.finishRenames();
      assert.match(pointWith(s, 'orchard').text, /Zedd: the orchard floods/);
      assert.equal(pointWith(s, 'orchard').dmWith, 'person:p_zed');
    } finally {
      await s.close();
    }
  });
}

describeOnBothJournals('the rename pass and older spellings', defineCases);
