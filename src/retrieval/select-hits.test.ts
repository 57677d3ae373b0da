import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { RecallHit } from './recall-hit.js';
import { normalizeForDedupe, selectHits } from './select-hits.js';

function hit(id: string, text: string, messageIds: string, score = 0.5): RecallHit {
  return { id, score, text, speakers: 'Ada', timestamp: 0, messageIds, messageCount: 1 };
}

const ids = (hits: RecallHit[]) => hits.map((h) => h.id);

describe('normalizeForDedupe', () => {
  test('drops date markers, collapses whitespace, keeps the first 200 chars', () => {
    assert.equal(normalizeForDedupe('[2024-03-09]\nAda:  hi\n\tthere '), 'Ada: hi there');
    assert.equal(normalizeForDedupe(`[1] ${'a'.repeat(300)}`), 'a'.repeat(200));
    assert.equal(normalizeForDedupe('[note] x'), '[note] x');
  });
});

describe('selectHits', () => {
  test('leaves out hits holding an excluded message id, ids trimmed as st splits them', () => {
    const hits = [hit('a', 'one', 'm1, m2'), hit('b', 'two', 'm3'), hit('c', 'three', 'm20')];
    assert.deepEqual(ids(selectHits(hits, { limit: 5, excludeMessageIds: ['m2'] })), ['b', 'c']);
    assert.deepEqual(ids(selectHits(hits, { limit: 5, excludeMessageIds: new Set(['m2', 'm3']) })), ['c']);
  });

  test('an id is matched whole, not as a substring', () => {
    const hits = [hit('a', 'one', 'm20,m21')];
    assert.deepEqual(ids(selectHits(hits, { limit: 5, excludeMessageIds: ['m2'] })), ['a']);
  });

  test('keeps the first of near-duplicate texts that differ only in date or whitespace', () => {
    const hits = [
      hit('a', '[2024-03-09]\nAda: hi\nMythos: hello', '1,2', 0.9),
      hit('b', '[2024-05-01]\nAda: hi  Mythos: hello', '7,8', 0.8),
      hit('c', '[2024-03-09]\nAda: hi\nMythos: hello!', '3', 0.7),
    ];
    assert.deepEqual(ids(selectHits(hits, { limit: 5 })), ['a', 'c']);
  });

  test('counts limit after exclusion and dedupe', () => {
    const hits = [
      hit('a', 'x', '1'),
      hit('b', 'x', '2'),
      hit('c', 'y', '3'),
      hit('d', 'z', '4'),
      hit('e', 'w', '5'),
    ];
    assert.deepEqual(ids(selectHits(hits, { limit: 2, excludeMessageIds: ['3'] })), ['a', 'd']);
    assert.deepEqual(selectHits(hits, { limit: 0 }), []);
  });
});
