import assert from 'node:assert/strict';
import { test } from 'node:test';
import { weighByWindow } from './weigh-by-window.js';

test('a vague window moves candidates inside it ahead of close ones outside, and leaves none out', () => {
  const hits = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((id, i) => ({
    id,
    timestamp: i === 2 ? 50 : 500,
  }));
  const weighed = weighByWindow(hits, { from: 0, to: 100 });
  // Outside ones move down a quarter of the list (2 places): c passes b, ties with a (a keeps its place).
  assert.deepEqual(
    weighed.map((h) => h.id),
    ['a', 'c', 'b', 'd', 'e', 'f', 'g', 'h'],
  );
  assert.deepEqual(
    weighByWindow(hits, { from: 400, to: 600 }).map((h) => h.id),
    ['a', 'b', 'd', 'c', 'e', 'f', 'g', 'h'],
  );
});
