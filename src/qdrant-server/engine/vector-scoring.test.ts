/** @module Tests that top-k selection keeps the best k in order and costs O(n log k) comparisons, whatever `limit` a client sends. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { seededRandom } from '../../runtime/seeded-random.js';
import { TopK } from './vector-scoring.js';

test('keeps the best k, best first, ties by the tie-break', () => {
  const random = seededRandom(3);
  const items = Array.from({ length: 500 }, (_, id) => ({ id, score: Math.floor(random() * 50) }));
  for (const [k, higherIsBetter] of [
    [1, true],
    [7, false],
    [499, true],
    [1e9, false],
  ] as const) {
    const top = new TopK<number>(k, higherIsBetter, (a, b) => a - b);
    for (const { id, score } of items) top.offer(id, score);
    const expected = [...items]
      .sort((a, b) => (higherIsBetter ? b.score - a.score : a.score - b.score) || a.id - b.id)
      .slice(0, k)
      .map(({ id, score }) => ({ item: id, score }));
    assert.deepEqual(top.items, expected, `k=${k}`);
  }
});

test('a huge capacity costs O(n log n) comparisons, not O(n · k)', () => {
  const n = 5000;
  let comparisons = 0;
  // Equal scores force every comparison through the tie-break, so counting its calls counts them all;
  // descending ids make each new item the best so far, the worst case for an insertion-sorted list.
  const top = new TopK<number>(1_000_000_000, true, (a, b) => {
    comparisons++;
    return a - b;
  });
  for (let id = n; id > 0; id--) top.offer(id, 1);
  const items = top.items;
  assert.equal(items.length, n);
  assert.equal(items[0]?.item, 1);
  const bound = 4 * n * Math.log2(n);
  assert.ok(comparisons < bound, `${comparisons} comparisons for ${n} items (bound ${Math.round(bound)})`);
});
