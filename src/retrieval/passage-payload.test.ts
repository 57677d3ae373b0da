import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatChunk } from '../chunking/chunk-format.js';
import type { MemoryMessage } from '../chunking/memory-message.js';
import { passagePayload } from './passage-payload.js';

const speakers = { selfSpeaker: 'Mythos', speakerAliases: { 'discord:1': 'Anna' } };
const day = Date.UTC(2026, 2, 4, 10);
const message = (id: string, text: string, minutes: number, self = false): MemoryMessage => ({
  bot: 'mythos',
  source: 'discord',
  messageId: id,
  speakerKind: self ? 'self' : 'user',
  text,
  ts: day + minutes * 60_000,
  ...(self ? {} : { userId: 'discord:1' }),
  channelId: 'c1',
});
const messages = [
  message('m1', 'I adopted a cat.\nHer name is Miso.', 0),
  message('m2', 'What a lovely name!', 1, true),
  message('m3', 'She sleeps all day.', 2),
];
const chunk = { ...formatChunk(messages, speakers) };

test('a passage reads as a chunk of its messages would: date, Speaker: lines, its ids and speakers', () => {
  const payload = passagePayload(chunk, messages, ['m2', 'm3'], speakers);
  assert.deepEqual(payload, {
    ...chunk,
    text: '[2026-03-04]\nMythos: What a lovely name!\nAnna: She sleeps all day.',
    speakers: 'Mythos, Anna',
    messageCount: 2,
    timestamp: day + 60_000,
    messageIds: 'm2,m3',
  });
  // A message with a newline is cut at message boundaries, not at lines.
  assert.equal(
    passagePayload(chunk, messages, ['m1'], speakers)?.text,
    '[2026-03-04]\nAnna: I adopted a cat.\nHer name is Miso.',
  );
});

test('messages that do not make exactly the stored chunk give no passage (the whole chunk stands in)', () => {
  const edited = [message('m1', 'I adopted a dog.', 0), ...messages.slice(1)];
  assert.equal(passagePayload(chunk, edited, ['m2'], speakers), undefined, 'an edit not yet rewritten');
  assert.equal(passagePayload(chunk, messages.slice(1), ['m2'], speakers), undefined, 'a forget in flight');
  assert.equal(passagePayload(chunk, [], ['m2'], speakers), undefined, 'the journal does not know it');
  assert.equal(passagePayload(chunk, messages, ['m9'], speakers), undefined, 'a part of other messages');
  const renamed = { ...speakers, speakerAliases: { 'discord:1': 'Annie' } };
  assert.equal(passagePayload(chunk, messages, ['m2'], renamed), undefined, 'an alias changed since');
});
