import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatChunk } from '../chunking/chunk-format.js';
import type { MemoryMessage } from '../chunking/memory-message.js';
import { buildPartPoints, derivePartPointId } from './build-part-points.js';

const plan = { messagesPerPart: 2, maxTokens: 1000, countTokens: (text: string) => text.length };
const speakers = { selfSpeaker: 'Mythos', speakerAliases: { '42': 'Helen' } };
const message = (
  id: string,
  text: string,
  ts: number,
  extra: Partial<MemoryMessage> = {},
): MemoryMessage => ({
  bot: 'mythos',
  source: 'discord',
  messageId: id,
  speakerKind: 'user',
  userId: '42',
  text,
  ts,
  channelId: 'c1',
  guildId: 'g1',
  ...extra,
});

test('parts show the lines exactly as the chunk does, and carry its place and a link to it', () => {
  const messages = [
    message('m2', 'Lisbon, with <@42>!', 2000, { speakerKind: 'self', userId: undefined }),
    message('m1', '  My sister lives in Lisbon.  ', 1000),
  ];
  const chunk = formatChunk(messages, speakers);
  const parts = buildPartPoints('chunk-1', chunk, messages, speakers, plan);
  assert.equal(parts.length, 1);
  const [part] = parts;
  assert.equal(part!.payload.text, chunk.text.split('\n').slice(1).join('\n'));
  assert.deepEqual(part!.payload, {
    chunkId: 'chunk-1',
    messageIds: 'm1,m2',
    text: 'Helen: My sister lives in Lisbon.\nMythos: Lisbon, with Helen!',
    timestamp: 1000,
    source: 'discord',
    channelId: 'c1',
    guildId: 'g1',
  });
});

test('a DM chunk marks its parts as DM parts, so dm-private scopes filter them too', () => {
  const messages = [message('d1', 'secret', 1000, { isDm: true, guildId: undefined })];
  const [part] = buildPartPoints('chunk-dm', formatChunk(messages, speakers), messages, speakers, plan);
  assert.equal(part!.payload.isDm, true);
  assert.equal(part!.payload.guildId, undefined);
  // Who the DM is with, as on the chunk: a person's DM recall filters parts by it as it filters chunks.
  assert.equal(part!.payload.dmWith, 'account:discord:42');
});

test('part ids are UUIDs fixed by the chunk and the messages: an edit overwrites, a forget renames', () => {
  const id = derivePartPointId('chunk-1', ['m1', 'm2']);
  assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.equal(derivePartPointId('chunk-1', ['m1', 'm2']), id);
  assert.notEqual(derivePartPointId('chunk-1', ['m1']), id);
  assert.notEqual(derivePartPointId('chunk-2', ['m1', 'm2']), id);
});
