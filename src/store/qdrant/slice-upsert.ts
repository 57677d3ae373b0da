/**
 * @module Cuts a large upsert into requests of a bounded number of vector components. Each request's JSON is
 * written by the client and parsed by the store in one block of the event loop (~0.6 ms per 3072-d vector
 * each way); with the embedded store in the same process, a batch of ~300 part vectors held every /save for
 * hundreds of milliseconds. Between requests the loop turns, so a /save waits for one slice at most.
 */

/**
 * Vector components per upsert request: 21 vectors of 3072-d (~1.4 MB of a real model's JSON, ~13 ms to write
 * and as much to parse on a busy core), 170 of 384-d. A chat's write batch (a chunk or two and their parts)
 * still goes in one request; an import's batch of 32 chunks (~350 part vectors) in ~17.
 */
export const UPSERT_SLICE_COMPONENTS = 65_536;

/**
 * `points` in order, in slices whose components add up to at most `budget`; a point larger than the budget
 * goes alone. Upserts are idempotent by id, so a failure after some slices is made good by the caller's retry.
 */
export function sliceUpsert<T>(
  points: readonly T[],
  componentsOf: (point: T) => number,
  budget: number = UPSERT_SLICE_COMPONENTS,
): T[][] {
  const slices: T[][] = [];
  let current: T[] = [];
  let size = 0;
  for (const point of points) {
    const components = componentsOf(point);
    if (current.length > 0 && size + components > budget) {
      slices.push(current);
      current = [];
      size = 0;
    }
    current.push(point);
    size += components;
  }
  if (current.length > 0) slices.push(current);
  return slices;
}

/**
 * The array itself when it is one: a request only serializes it, so a vector's 3072 numbers need no copy;
 * a Float32Array becomes an array, as JSON needs.
 */
export function asWireArray(values: readonly number[] | Float32Array): number[] {
  return Array.isArray(values) ? (values as number[]) : Array.from(values);
}
