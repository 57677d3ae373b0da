import assert from 'node:assert/strict';
import { test } from 'node:test';
import { seededRandom } from '../../runtime/seeded-random.js';
import { orderByScore } from './score-order.js';

test('orders f32 scores like a comparator sort: either direction, signs, zeros, ties by the tie-break', () => {
  const random = seededRandom(5);
  for (let trial = 0; trial < 200; trial++) {
    const n = 1 + Math.floor(random() * 300);
    // Many exact ties (small integers, ±0) among scores spread over six orders of magnitude.
    const scores = Float64Array.from({ length: n }, () =>
      Math.fround(
        random() < 0.3 ? Math.round(random() * 4) - 2 : (random() - 0.5) * 10 ** (random() * 6 - 3),
      ),
    );
    scores[0] = -0;
    const ids = Array.from({ length: n }, () => Math.floor(random() * 1000));
    const tieBreak = (a: number, b: number) => (ids[a] as number) - (ids[b] as number) || a - b;
    for (const higherIsBetter of [true, false]) {
      const expected = [...Array(n).keys()].sort(
        (a, b) =>
          (higherIsBetter
            ? (scores[b] as number) - (scores[a] as number)
            : (scores[a] as number) - (scores[b] as number)) || tieBreak(a, b),
      );
      assert.deepEqual([...orderByScore(scores, n, higherIsBetter, tieBreak)], expected);
    }
  }
});
