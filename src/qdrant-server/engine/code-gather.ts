/**
 * @module Copies chosen slots' int8 codes into one contiguous scratch block, so a filtered search can hand
 * usearch only the matching points instead of masking a scan over all of them. The block is reused across
 * calls (searches run one at a time on the engine's thread), growing to the largest subset seen.
 */

let scratch = new Int8Array(0);

/**
 * The codes of `slots` (slot numbers into `codes`, `dim` values each) packed in that order: row i holds
 * slot `slots[i]`. Returns a view at offset 0 of the shared scratch block, valid until the next call.
 */
export function gatherCodes(codes: Int8Array, dim: number, slots: Int32Array): Int8Array {
  const length = slots.length * dim;
  if (scratch.length < length) scratch = new Int8Array(Math.max(length, Math.floor(scratch.length * 1.5)));
  for (let i = 0; i < slots.length; i++) {
    const start = (slots[i] as number) * dim;
    scratch.set(codes.subarray(start, start + dim), i * dim);
  }
  return scratch.subarray(0, length);
}
