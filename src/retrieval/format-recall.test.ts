import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatRecall } from './format-recall.js';
import type { RecallHit } from './recall-hit.js';

const chunk: RecallHit = {
  id: 'a',
  score: 0.876,
  text: '[2024-03-09]\nAda: I adopted a cat\nMythos: What is its name?',
  speakers: 'Ada, Mythos',
  timestamp: 0,
  messageIds: '1,2',
  messageCount: 2,
};

describe('formatRecall', () => {
  test('renders the block byte for byte as st-qdrant-memory does, trailing blank line included', () => {
    const second: RecallHit = {
      ...chunk,
      id: 'b',
      score: 0.305,
      text: '[2024-01-02]\nAda: tea',
      speakers: 'Ada',
    };
    assert.equal(
      formatRecall([chunk, second]),
      '\n[Past chat memories]\n\n' +
        '• Conversation (Ada, Mythos): "[2024-03-09] Ada: I adopted a cat Mythos: What is its name?" (score: 88%)\n\n' +
        '• Conversation (Ada): "[2024-01-02] Ada: tea" (score: 31%)\n\n',
    );
  });

  test('renders old single-message points the way st labels them', () => {
    const legacy = { ...chunk, speakers: '', text: 'I like\ntea', score: 0.5 };
    const block = formatRecall([
      { ...legacy, legacySpeaker: 'user' },
      { ...legacy, legacySpeaker: 'character', score: 0.42 },
    ]);
    assert.equal(
      block,
      '\n[Past chat memories]\n\n• User said: "I like tea" (score: 50%)\n\n• Character said: "I like tea" (score: 42%)\n\n',
    );
    assert.match(
      formatRecall([{ ...legacy, legacySpeaker: 'user' }], { legacyUserName: 'Ada' }),
      /• Ada said: /,
    );
  });

  test('is empty when nothing was recalled', () => {
    assert.equal(formatRecall([]), '');
  });
});
