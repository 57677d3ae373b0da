/** @module Scaling vectors to unit length, so cosine similarity equals the dot product for every embedder. */

/** Scales `vector` in place to unit L2 norm and returns it; an all-zero vector is left as it is. */
export function normalizeL2(vector: Float32Array): Float32Array {
  let sumOfSquares = 0;
  for (let i = 0; i < vector.length; i++) {
    const value = vector[i]!;
    sumOfSquares += value * value;
  }
  if (sumOfSquares === 0) return vector;
  const scale = 1 / Math.sqrt(sumOfSquares);
  for (let i = 0; i < vector.length; i++) vector[i] = vector[i]! * scale;
  return vector;
}
