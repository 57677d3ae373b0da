/** @module Cosine similarity of two vectors in f64: one copy for recall, the store client and the embedded store. */

/** The cosine of `a` and `b` (a missing component of `b` counts as 0); 0 when either has no length. */
export function computeCosine(
  a: Float32Array | readonly number[],
  b: Float32Array | readonly number[],
): number {
  let dot = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i] ?? 0;
    dot += x * y;
    aa += x * x;
    bb += y * y;
  }
  return aa > 0 && bb > 0 ? dot / Math.sqrt(aa * bb) : 0;
}
