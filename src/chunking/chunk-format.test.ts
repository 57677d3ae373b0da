import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatChunk } from './chunk-format.js';
import type { MemoryMessage, SpeakerConfig } from './memory-message.js';

const config: SpeakerConfig = { selfSpeaker: 'Mythos', speakerAliases: { '111': 'Ada' } };

function message(overrides: Partial<MemoryMessage> & Pick<MemoryMessage, 'messageId' | 'ts'>): MemoryMessage {
  return { bot: 'mythos', source: 'discord', speakerKind: 'user', text: 'hi', ...overrides };
}

// 2024-03-09T23:59:59.000Z: a minute before midnight UTC, the next day in any zone east of UTC.
const BEFORE_MIDNIGHT = Date.UTC(2024, 2, 9, 23, 59, 59);

describe('formatChunk', () => {
  test('writes the payload st-qdrant-memory writes, plus source and place', () => {
    const payload = formatChunk(
      [
        message({ messageId: '2', ts: BEFORE_MIDNIGHT + 2000, speakerKind: 'self', text: 'Hello <@111>.' }),
        message({
          messageId: '1',
          ts: BEFORE_MIDNIGHT,
          userId: '111',
          speakerName: 'ada#1',
          text: '  hi there \n',
        }),
        message({
          messageId: '3',
          ts: BEFORE_MIDNIGHT + 3000,
          userId: '5',
          speakerName: 'Carol',
          text: 'yo',
        }),
      ],
      config,
    );
    assert.deepEqual(payload, {
      text: '[2024-03-09]\nAda: hi there\nMythos: Hello Ada.\nCarol: yo',
      speakers: 'Ada, Mythos, Carol',
      messageCount: 3,
      timestamp: BEFORE_MIDNIGHT,
      messageIds: '1,2,3',
      isChunk: true,
      source: 'discord',
    });
  });

  test('dates the chunk by its oldest message in UTC', () => {
    const payload = formatChunk(
      [
        message({ messageId: 'b', ts: BEFORE_MIDNIGHT + 1000 }),
        message({ messageId: 'a', ts: BEFORE_MIDNIGHT }),
      ],
      config,
    );
    assert.match(payload.text, /^\[2024-03-09\]\n/);
    const nextDay = formatChunk([message({ messageId: 'c', ts: BEFORE_MIDNIGHT + 1000 })], config);
    assert.match(nextDay.text, /^\[2024-03-10\]\n/);
  });

  test('names each speaker once, in order of first appearance, and keeps given order on equal ts', () => {
    const payload = formatChunk(
      [
        message({ messageId: 'x', ts: 5, speakerName: 'Bo', text: 'one' }),
        message({ messageId: 'y', ts: 5, speakerKind: 'self', text: 'two' }),
        message({ messageId: 'z', ts: 5, speakerName: 'Bo', text: 'three' }),
      ],
      config,
    );
    assert.equal(payload.text, '[1970-01-01]\nBo: one\nMythos: two\nBo: three');
    assert.equal(payload.speakers, 'Bo, Mythos');
    assert.equal(payload.messageIds, 'x,y,z');
  });

  test('records channel and guild only when known', () => {
    const known = formatChunk(
      [
        message({ messageId: '1', ts: 1, channelId: 'c9', guildId: 'g9' }),
        message({ messageId: '2', ts: 2 }),
      ],
      config,
    );
    assert.equal(known.channelId, 'c9');
    assert.equal(known.guildId, 'g9');
    const unknown = formatChunk([message({ messageId: '1', ts: 1, source: 'hermes' })], config);
    assert.deepEqual(Object.keys(unknown).sort(), [
      'isChunk',
      'messageCount',
      'messageIds',
      'source',
      'speakers',
      'text',
      'timestamp',
    ]);
    assert.equal(unknown.source, 'hermes');
  });

  test('refuses an empty chunk', () => {
    assert.throws(() => formatChunk([], config), RangeError);
  });
});
