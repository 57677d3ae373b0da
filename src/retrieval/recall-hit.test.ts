import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { toRecallHit } from './recall-hit.js';

describe('toRecallHit', () => {
  test('maps a memory-pool chunk field for field', () => {
    const hit = toRecallHit({
      id: '0f6c1d2e-0000-5000-8000-000000000000',
      score: 0.87,
      payload: {
        text: '[2024-03-09]\nAda: hi\nMythos: hello',
        speakers: 'Ada, Mythos',
        messageCount: 2,
        timestamp: 1710028799000,
        messageIds: '1,2',
        isChunk: true,
        source: 'discord',
        channelId: 'c9',
        guildId: 'g9',
      },
    });
    assert.deepEqual(hit, {
      id: '0f6c1d2e-0000-5000-8000-000000000000',
      score: 0.87,
      text: '[2024-03-09]\nAda: hi\nMythos: hello',
      speakers: 'Ada, Mythos',
      timestamp: 1710028799000,
      messageIds: '1,2',
      messageCount: 2,
      source: 'discord',
      channelId: 'c9',
      guildId: 'g9',
    });
  });

  test('a SillyTavern chunk has no source or place keys at all', () => {
    const hit = toRecallHit({
      id: 'a',
      score: 0.5,
      payload: {
        text: 't',
        speakers: 'Ada, Seraphina',
        messageCount: 1,
        timestamp: 5,
        messageIds: 'x',
        isChunk: true,
      },
    });
    assert.deepEqual(Object.keys(hit).sort(), [
      'id',
      'messageCount',
      'messageIds',
      'score',
      'speakers',
      'text',
      'timestamp',
    ]);
  });

  test('reads an old single-message point as st-qdrant-memory does', () => {
    const user = toRecallHit({
      id: 1697000000000,
      score: 0.4,
      payload: {
        text: 'I like tea',
        speaker: 'user',
        character: 'Seraphina',
        timestamp: 1697000000000,
        messageId: 'Seraphina_1697000000000_3',
      },
    });
    assert.deepEqual(user, {
      id: 1697000000000,
      score: 0.4,
      text: 'I like tea',
      speakers: '',
      timestamp: 1697000000000,
      messageIds: 'Seraphina_1697000000000_3',
      messageCount: 1,
      legacySpeaker: 'user',
    });
    assert.equal(
      toRecallHit({ id: 2, score: 0.4, payload: { text: 'x', speaker: 'character' } }).legacySpeaker,
      'character',
    );
    assert.equal(toRecallHit({ id: 3, score: 0.4, payload: { text: 'x' } }).legacySpeaker, 'character');
  });

  test('tolerates missing and odd fields from other writers', () => {
    assert.deepEqual(toRecallHit({ id: 'n', score: 0.3, payload: null }), {
      id: 'n',
      score: 0.3,
      text: '',
      speakers: '',
      timestamp: 0,
      messageIds: '',
      messageCount: 1,
      legacySpeaker: 'character',
    });
    const odd = toRecallHit({
      id: 'o',
      score: 0.3,
      payload: {
        isChunk: true,
        text: 42,
        speakers: ['Ada', 'Bo'],
        messageIds: ['1', '2', '3'],
        timestamp: '1700',
        source: 7,
      },
    });
    assert.equal(odd.text, '');
    assert.equal(odd.speakers, 'Ada, Bo');
    assert.equal(odd.messageIds, '1,2,3');
    assert.equal(odd.messageCount, 3);
    assert.equal(odd.timestamp, 1700);
    assert.equal(odd.source, undefined);
    assert.equal(odd.legacySpeaker, undefined);
  });
});
