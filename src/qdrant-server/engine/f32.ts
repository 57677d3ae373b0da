/** @module f32 vector preparation: rounding JSON numbers to f32 and Qdrant's Cosine pre-normalization (qdrant-subset.md §2). */
import type { DenseVectorInput, Distance } from './engine-api.js';

/** f32::EPSILON: below this squared length a vector is treated as zero and stored as is. */
const F32_EPSILON = 1.1920929e-7;

/**
 * Rounds every component to f32 and, for Cosine, normalizes to unit length with f32 arithmetic,
 * as Qdrant's `cosine_preprocess` does. Returns a fresh array (never a view), which usearch needs.
 */
export function prepareVector(values: DenseVectorInput, distance: Distance): Float32Array {
  // A Float32Array's slice is one copy of its bytes (a view's own components only).
  const vector = values instanceof Float32Array ? values.slice() : Float32Array.from(values);
  if (distance !== 'Cosine') return vector;
  let squared = 0;
  for (let i = 0; i < vector.length; i++) {
    const x = vector[i] as number;
    squared = Math.fround(squared + Math.fround(x * x));
  }
  // Qdrant skips vectors already (nearly) unit length and zero vectors, so they keep their exact input values.
  if (Math.abs(squared - 1) <= 1e-6 || squared < F32_EPSILON) return vector;
  const length = Math.fround(Math.sqrt(squared));
  for (let i = 0; i < vector.length; i++) vector[i] = Math.fround((vector[i] as number) / length);
  return vector;
}

/** The bytes of an f32 vector, for a SQLite BLOB. */
export function encodeVector(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}
