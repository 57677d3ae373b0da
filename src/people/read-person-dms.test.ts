/**
 * @module DM privacy by `dmWith`, through the assembled service on both journal backends: a linked person's DM
 * recall sees exactly their DMs before the rename pass has rewritten the old points and after it, never another
 * person's, even while points still name them for an account unlinked since; the pass sets the field on old
 * points and an unlink sets it back; points with no field (a chunk of the companion's replies alone) are found
 * by their DM's channel.
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
const HOUR = 3_600_000;
const BOT = testBot('mythos', { retrieve: { limit: 5, scoreThreshold: 0.1, scope: 'dm-private' } });
type Service = PeopleService;

/** One message (tagged `t-<id>` so a hit names it) in a DM or, with `guild`, a server channel. */
const message = (id: string, channel: string, who: object, at: number, guild?: string) => ({
  message_id: id,
  speaker_kind: 'speaker_kind' in who ? undefined : 'user',
  text: `t-${id}: the lighthouse by the sea`,
  ts: DAY + at,
  channel_id: channel,
  ...(guild === undefined ? { is_dm: true } : { guild_id: guild }),
  ...who,
});

/** The tags of every memory a recall asked in `where` lets through. */
async function recallIn(s: Service, where: object): Promise<string[]> {
  const answer = await s.call('POST', '/retrieve', {
    bot: 'mythos',
    query_text: 'the lighthouse by the sea',
    score_threshold: -1,
    limit: 50,
    ...where,
  });
  const texts = (answer.hits as { text: string }[]).map((hit) => hit.text).join('\n');
  return [...new Set(texts.match(/\bt-[a-z0-9-]+/g) ?? [])].map((tag) => tag.slice(2)).sort();
}

/** `dmWith` of the chunk point holding message `id` (and of its parts: the same, or none). */
function dmWithOf(s: Service, id: string): unknown {
  const [chunk] = s.store.heldPoints('mem_mythos').filter((p) => String(p.payload.text).includes(`t-${id}:`));
  assert.ok(chunk !== undefined, `a point holds ${id}`);
  const parts = s.store.heldPoints('mem_mythos__parts').filter((p) => p.payload.chunkId === chunk.id);
  assert.ok(parts.length > 0, `${id} has parts`);
  for (const part of parts)
    assert.equal(part.payload.dmWith, chunk.payload.dmWith, `the parts of ${id} say what their chunk says`);
  return chunk.payload.dmWith;
}

function defineCases(open: OpenJournal): void {
  test('a linked person’s DM recall sees exactly their DMs before and after the pass; an unlink narrows at once', {
    timeout: 30_000,
  }, async () => {
    const journal = await open();
    const s = await startPeopleService(journal, BOT);
    try {
      const annaD = { discord_user_id: '1234' };
      const annaT = { user_id: 'telegram:5678' };
      const carl = { user_id: 'telegram:77' };
      const self = { speaker_kind: 'self' };
      await s.call('POST', '/save', {
        bot: 'mythos',
        source: 'discord',
        messages: [
          message('anna-discord', 'dm-anna', annaD, 0),
          message('anna-discord-reply', 'dm-anna', self, 1000),
          // Alone in its chunk (a day later): the companion's replies only, so no field; found by its channel.
          message('anna-discord-later', 'dm-anna', self, 26 * HOUR),
          message('bob', 'dm-bob', { discord_user_id: '999' }, 2000),
          message('public', 'general', { discord_user_id: '999' }, 3000, 'g1'),
        ],
      });
      await s.call('POST', '/save', {
        bot: 'mythos',
        source: 'hermes',
        messages: [message('anna-telegram', 'tg-anna', annaT, 4000), message('carl', 'tg-carl', carl, 5000)],
      });
      await s.writer.runOnce({ flush: true });
      assert.equal(dmWithOf(s, 'anna-discord'), 'account:discord:1234');
      assert.equal(dmWithOf(s, 'anna-telegram'), 'account:telegram:5678');
      assert.equal(dmWithOf(s, 'anna-discord-later'), undefined);
      const inTelegram = { channel_id: 'tg-anna', is_dm: true, ...annaT };
      const alone = ['anna-telegram', 'public'];
      assert.deepEqual(await recallIn(s, inTelegram), alone, 'nobody linked: this DM only');

      // Carl's account linked to Anna by mistake (a code said by the wrong person): his DM is hers while linked.
      const anna = await s.call('POST', '/bots/mythos/people', {
        name: 'Anna',
        accounts: [annaD, annaT, carl],
      });
      const hers = [
        'anna-discord',
        'anna-discord-later',
        'anna-discord-reply',
        'anna-telegram',
        'carl',
        'public',
      ];
      assert.equal(dmWithOf(s, 'anna-discord'), 'account:discord:1234', 'not rewritten yet');
      assert.deepEqual(await recallIn(s, inTelegram), hers, 'before the pass');
      await s.finishRenames();
      assert.equal(dmWithOf(s, 'anna-discord'), `person:${anna.id}`);
      assert.equal(dmWithOf(s, 'anna-telegram'), `person:${anna.id}`);
      assert.equal(dmWithOf(s, 'carl'), `person:${anna.id}`);
      assert.equal(dmWithOf(s, 'bob'), 'account:discord:999');
      assert.deepEqual(await recallIn(s, inTelegram), hers, 'after the pass');
      assert.deepEqual(await recallIn(s, { channel_id: 'dm-bob', is_dm: true, discord_user_id: '999' }), [
        'bob',
        'public',
      ]);

      // The owner splits Carl off. His DM's points still name Anna until the pass: she never sees them again.
      await s.call('PATCH', `/bots/mythos/people/${anna.id}`, { remove: [carl] });
      assert.equal(dmWithOf(s, 'carl'), `person:${anna.id}`, 'not rewritten yet');
      const hersNow = hers.filter((tag) => tag !== 'carl');
      assert.deepEqual(await recallIn(s, inTelegram), hersNow, 'unlinked, before the pass');
      assert.deepEqual(await recallIn(s, { channel_id: 'tg-carl', is_dm: true, ...carl }), [
        'carl',
        'public',
      ]);
      await s.finishRenames();
      assert.equal(dmWithOf(s, 'carl'), 'account:telegram:77', 'the unlink set it back');
      assert.equal(dmWithOf(s, 'anna-telegram'), `person:${anna.id}`);
      assert.deepEqual(await recallIn(s, inTelegram), hersNow, 'unlinked, after the pass');

      // The person removed: every account is its own again, and so is each DM.
      await s.call('DELETE', `/bots/mythos/people/${anna.id}`);
      assert.deepEqual(await recallIn(s, inTelegram), alone, 'removed, before the pass');
      await s.finishRenames();
      assert.equal(dmWithOf(s, 'anna-discord'), 'account:discord:1234');
      assert.equal(dmWithOf(s, 'anna-telegram'), 'account:telegram:5678');
      assert.deepEqual(await recallIn(s, inTelegram), alone, 'removed, after the pass');
    } finally {
      await s.close();
    }
  });
}

describeOnBothJournals('DM recall by dmWith', defineCases);
