/**
 * @module Sorting many scored candidates (a `limit` past the collection's size ranks all of it) without a
 * comparator call per comparison: each f32 score is mapped to an order-preserving integer, packed with its
 * position into one f64 below 2^53, and the Float64Array is sorted natively, about 10x faster for 100k
 * candidates. Runs of equal scores are then ordered by the caller's tie-break.
 */

/** Positions up to 2^21 fit beside a 32-bit score key within f64's 53-bit integers. */
const POSITION_BITS = 2 ** 21;

const f32 = new Float32Array(1);
const bits = new Uint32Array(f32.buffer);

/** An unsigned key ascending with the f32 value (the usual sign-flip of IEEE bits); -0 counts as 0. */
function ascendingKey(score: number): number {
  f32[0] = score + 0;
  const raw = bits[0] as number;
  return raw >>> 31 === 1 ? ~raw >>> 0 : (raw | 0x8000_0000) >>> 0;
}

/**
 * Positions 0..count-1 ordered best first by `scores` (f32 values: higher first when `higherIsBetter`), equal
 * scores ordered by `tieBreak` of their positions.
 */
export function orderByScore(
  scores: Float64Array,
  count: number,
  higherIsBetter: boolean,
  tieBreak: (a: number, b: number) => number,
): Int32Array {
  const order = new Int32Array(count);
  if (count >= POSITION_BITS) {
    for (let i = 0; i < count; i++) order[i] = i;
    const sign = higherIsBetter ? -1 : 1;
    return order.sort((a, b) => sign * ((scores[a] as number) - (scores[b] as number)) || tieBreak(a, b));
  }
  const keys = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const key = ascendingKey(scores[i] as number);
    keys[i] = (higherIsBetter ? 0xffff_ffff - key : key) * POSITION_BITS + i;
  }
  keys.sort();
  for (let i = 0; i < count; i++) order[i] = (keys[i] as number) % POSITION_BITS;
  // Equal scores sit together, in position order: give each such run the caller's order.
  for (let start = 0; start < count; ) {
    let end = start + 1;
    const score = scores[order[start] as number] as number;
    while (end < count && scores[order[end] as number] === score) end++;
    if (end - start > 1) order.subarray(start, end).sort(tieBreak);
    start = end;
  }
  return order;
}
