/** @module findGapDeletes on plain data: what a complete gap read's absences mean, and the proxy rule on Discord's times. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findGapDeletes, type GapDeletesInput } from './find-gap-deletes.js';

const T = 1_764_547_200_000;
const recorded = (id: string, at: number, text = `text of ${id}`) => ({ id, ts: T + at, text });
const said = (id: string, at: number) => ({ id, createdAt: T + at });
const webhook = (id: string, at: number, text: string) => ({ id, createdAt: T + at, webhookText: text });

const decide = (input: Partial<GapDeletesInput>) =>
  findGapDeletes({
    channelId: 'c1',
    recorded: [],
    read: [],
    graceMs: 5000,
    recordedHere: () => false,
    ...input,
  });

test('recorded messages the history no longer holds are deleted; those it holds are kept', () => {
  const result = decide({
    recorded: [recorded('a', 0), recorded('b', 1000), recorded('c', 2000)],
    read: [said('a', 0), said('c', 2000), said('d', 3000)],
  });
  assert.deepEqual(result.deleted, ['b']);
  assert.deepEqual([...result.reposts], []);
});

test('a message this connection recorded live is never taken for deleted (its delete arrives live)', () => {
  const result = decide({
    recorded: [recorded('old', 0), recorded('live', 9000)],
    read: [],
    recordedHere: (id) => id === 'live',
  });
  assert.deepEqual(result.deleted, ['old']);
});

test("a proxy's original is kept and its repost is not recorded; a webhook post past the grace changes nothing", () => {
  const result = decide({
    recorded: [recorded('gone', 0, 'call me at 555 0100'), recorded('orig', 6000, 'l: I moved to Porto')],
    read: [webhook('repost', 7200, 'I moved to Porto'), webhook('other', 7300, 'a feed item')],
  });
  assert.deepEqual(result.deleted, ['gone']);
  assert.deepEqual([...result.reposts], ['repost']);
});

test('a missing original followed by any webhook post within the grace is kept; only an exact text is a repost', () => {
  // Review s26, 2: the journal holds the mention as the gateway's nickname, the REST repost as the user's name.
  const result = decide({
    recorded: [recorded('orig', 0, 'l: ask Sammy about the keys'), recorded('image', 8000, 'look')],
    read: [webhook('repost', 1200, 'ask Sam about the keys'), webhook('attachment', 8500, '')],
  });
  assert.deepEqual(result.deleted, []);
  assert.deepEqual([...result.reposts], [], 'a text that does not match is recorded (a false keep at worst)');
});

test('a webhook post later than the grace, or before the original, is no repost of it', () => {
  const late = decide({
    recorded: [recorded('orig', 0, 'see you at nine')],
    read: [webhook('repost', 7000, 'see you at nine')],
  });
  assert.deepEqual(late.deleted, ['orig']);
  assert.deepEqual([...late.reposts], []);
  const earlier = decide({
    recorded: [recorded('orig', 2000, 'see you at nine')],
    read: [webhook('repost', 1000, 'see you at nine')],
  });
  assert.deepEqual(earlier.deleted, ['orig']);
});
