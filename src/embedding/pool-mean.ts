/** @module Mean pooling: one vector standing for several windows of one text. */
import { normalizeL2 } from './l2-normalize.js';

/**
 * The element-wise mean of `vectors`, scaled to unit length (so dot product stays cosine). Throws on an
 * empty list or vectors of different lengths, which would mean windows from different models.
 */
export function poolMean(vectors: readonly Float32Array[]): Float32Array {
  const first = vectors[0];
  if (first === undefined) throw new RangeError('poolMean needs at least one vector');
  const sum = new Float32Array(first.length);
  for (const vector of vectors) {
    if (vector.length !== sum.length) {
      throw new RangeError(`poolMean got vectors of ${sum.length} and ${vector.length} dimensions`);
    }
    for (let i = 0; i < sum.length; i++) sum[i] = sum[i]! + vector[i]!;
  }
  for (let i = 0; i < sum.length; i++) sum[i] = sum[i]! / vectors.length;
  return normalizeL2(sum);
}
