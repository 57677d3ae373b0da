/**
 * @module A vague window ("a while ago", "recently") only weighs recall: a candidate outside it gives way to
 * those inside it ranked a little below, and none is left out, since the phrase names no day to hold to.
 * By rank, not score: hybrid and chunk-only recall score on different scales.
 */
import type { TimeWindow } from './time-window.js';

/** An outside candidate ranks as if it stood this share of the list further down. */
const OUTSIDE_SHIFT = 0.25;

/** `candidates` (best first) reordered, those outside `window` moved down; their scores are unchanged. */
export function weighByWindow<T extends { readonly timestamp: number }>(
  candidates: readonly T[],
  window: Pick<TimeWindow, 'from' | 'to'>,
): T[] {
  const shift = candidates.length * OUTSIDE_SHIFT;
  const weighed = candidates.map((hit, index) => {
    const inside = hit.timestamp >= window.from && hit.timestamp < window.to;
    return { hit, index, key: inside ? index : index + shift };
  });
  // Ties keep the order recall gave them.
  weighed.sort((a, b) => a.key - b.key || a.index - b.index);
  return weighed.map((w) => w.hit);
}
