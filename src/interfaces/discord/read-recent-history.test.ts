import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Message } from 'discord.js';
import { type HistoryChannel, readRecentHistory } from './read-recent-history.js';

/** A channel of `count` messages, one a second (ids in order), answering pages newest first as Discord does. */
function channelOf(count: number): { channel: HistoryChannel; pages: (string | undefined)[] } {
  const all = Array.from({ length: count }, (_, i) => ({ id: String(1000 + i), createdTimestamp: i * 1000 }));
  const pages: (string | undefined)[] = [];
  const channel: HistoryChannel = {
    messages: {
      fetch: async ({ limit, before }) => {
        pages.push(before);
        const older = all.filter((m) => before === undefined || m.id < before).reverse();
        return new Map(older.slice(0, limit).map((m) => [m.id, m as unknown as Message]));
      },
    },
  };
  return { channel, pages };
}

test('a gap read keeps what was created since its start, oldest first, and stops paging once past it', async () => {
  const { channel, pages } = channelOf(250);
  const read = await readRecentHistory(channel, 1000, 0, 120_000);
  assert.ok(read.complete, 'it reached back past its start');
  assert.deepEqual(
    read.messages.map((m) => m.createdTimestamp),
    Array.from({ length: 130 }, (_, i) => (120 + i) * 1000),
  );
  assert.deepEqual(pages, [undefined, '1150'], 'the second page reached back past the start: no third');
});

test('without a start, the latest `limit` messages are read', async () => {
  const { channel, pages } = channelOf(250);
  const read = await readRecentHistory(channel, 150, 0);
  assert.equal(read.messages.length, 150);
  assert.equal(read.messages[0]?.id, '1100');
  assert.equal(pages.length, 2);
  assert.equal(read.complete, false, 'cut at the limit: older messages may exist unread');
});

test('a read cut at its limit before reaching its start is incomplete; one reaching the channel start is complete', async () => {
  const cut = await readRecentHistory(channelOf(250).channel, 100, 0, 10_000);
  assert.equal(cut.messages.length, 100);
  assert.equal(cut.complete, false);
  const whole = await readRecentHistory(channelOf(150).channel, 1000, 0, 0);
  assert.equal(whole.messages.length, 150);
  assert.ok(whole.complete, 'the last page was short: the channel has nothing older');
  const exact = await readRecentHistory(channelOf(250).channel, 130, 0, 120_000);
  assert.equal(exact.messages.length, 130);
  assert.equal(exact.complete, false, 'the limit was reached exactly: whether older ones remain is unknown');
});
