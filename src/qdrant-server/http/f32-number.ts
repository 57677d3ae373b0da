/** @module Shortest round-trip form of f32 values, so vectors and scores print as Qdrant prints them (0.31, not 0.3100000023841858). */

/**
 * Returns the f64 nearest to the shortest decimal that reads back as the same f32.
 * JSON.stringify then prints that short decimal; only call this where Qdrant emits an f32.
 */
export function toShortestF32(value: number): number {
  if (!Number.isFinite(value) || value === 0) return value;
  const f32 = Math.fround(value);
  // 9 significant digits always round-trip an f32, so the loop ends by p = 9.
  for (let precision = 1; precision < 9; precision++) {
    const candidate = Number(f32.toPrecision(precision));
    if (Math.fround(candidate) === f32) return candidate;
  }
  return Number(f32.toPrecision(9));
}

/** Maps a vector's components through toShortestF32. */
export function toShortestF32Vector(vector: readonly number[]): number[] {
  return vector.map(toShortestF32);
}
