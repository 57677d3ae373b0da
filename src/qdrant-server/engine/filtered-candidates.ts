/**
 * @module A dense search's filter as a predicate on slot owners: the slots it accepts, and a cheap estimate of
 * their share. Testing a filter means reading each point's payload object, scattered over the heap, which at
 * 100k points cost more than the whole int8 scan; the estimate lets a search keeping most points test only
 * the few hundred candidates it would return (vector-search.ts).
 */
import type { SlotOwner, VectorSlots } from './vector-slots.js';

/** Slots tested to estimate a filter's share: a ±4% standard error at worst, for about 1% of 100k tests. */
const SAMPLE_SIZE = 512;

/** Every slot whose owner passes, in slot order. */
export function slotsAccepted<Owner extends SlotOwner>(
  slots: VectorSlots<Owner>,
  accept: (owner: Owner) => boolean,
): Int32Array {
  const picked = new Int32Array(slots.count);
  let count = 0;
  for (let slot = 0; slot < slots.count; slot++) if (accept(slots.owner(slot))) picked[count++] = slot;
  return picked.subarray(0, count);
}

/**
 * The share of slots whose owner passes, from evenly spaced samples (all slots when there are few). Only the
 * search's speed depends on it, never its result.
 */
export function estimateShare<Owner extends SlotOwner>(
  slots: VectorSlots<Owner>,
  accept: (owner: Owner) => boolean,
): number {
  const total = slots.count;
  const samples = Math.min(SAMPLE_SIZE, total);
  if (samples === 0) return 0;
  let passed = 0;
  for (let i = 0; i < samples; i++) {
    if (accept(slots.owner(Math.floor(((i + 0.5) * total) / samples)))) passed++;
  }
  return passed / samples;
}
