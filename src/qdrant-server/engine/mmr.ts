/**
 * @module Maximal Marginal Relevance over a query's nearest candidates, as Qdrant computes it
 * (`lib/shard/src/query/mmr/mod.rs`, `lib/collection/src/collection/query.rs`): the most relevant candidate
 * first, then repeatedly the one maximizing `λ·relevance − (1 − λ)·max similarity to those already picked`,
 * with λ = 1 − diversity (default 0.5). Similarities are the distance's raw ones (dot product; the negated
 * squared Euclid or Manhattan distance), f32. Hits keep their nearest score: MMR only picks and orders.
 */
import type { Distance, MmrParams } from './engine-api.js';
import type { PointEntry, SparseVectorData } from './point-table.js';
import { scoreSparse } from './sparse-search.js';

/** Qdrant's `DEFAULT_MMR_LAMBDA`. */
const DEFAULT_LAMBDA = 0.5;

/** A vector as MMR compares it: dense (already prepared, Cosine normalized) or sparse. */
export type MmrVector = Float32Array | SparseVectorData;

/** Raw similarity: higher is more alike, for every distance (`Metric::similarity`). */
export function rawSimilarity(distance: Distance, a: MmrVector, b: MmrVector): number {
  if (!(a instanceof Float32Array) || !(b instanceof Float32Array)) {
    // A sparse pair sharing no index scores 0 here (the volatile scorer's default), not "no result".
    return scoreSparse(a as SparseVectorData, b as SparseVectorData) ?? 0;
  }
  let sum = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    if (distance === 'Euclid') sum -= (x - y) * (x - y);
    else if (distance === 'Manhattan') sum -= Math.abs(x - y);
    else sum += x * y;
  }
  return Math.fround(sum);
}

/** One candidate: the hit and the vector MMR compares. */
export interface MmrCandidate<H> {
  readonly hit: H;
  readonly vector: MmrVector;
}

/**
 * Picks up to `limit` candidates in MMR order. Ties go to the last candidate in the remaining list, whose
 * order follows Qdrant's `IndexSet::swap_remove` (the last one moves into the picked one's place), as Rust's
 * `max_by_key` keeps the last maximum: so the same candidates give the same order as Qdrant.
 */
export function selectByMmr<H extends { readonly item: PointEntry }>(
  candidates: readonly MmrCandidate<H>[],
  query: MmrVector,
  distance: Distance,
  mmr: MmrParams,
  limit: number,
): H[] {
  if (candidates.length < 2 || limit === 0) return candidates.slice(0, limit).map((c) => c.hit);
  const lambda = mmr.diversity === undefined ? DEFAULT_LAMBDA : Math.fround(1 - mmr.diversity);
  const relevance = candidates.map((c) => rawSimilarity(distance, query, c.vector));
  const pairs = new Map<number, number>();
  const similarity = (i: number, j: number): number => {
    const key = i < j ? i * candidates.length + j : j * candidates.length + i;
    let value = pairs.get(key);
    if (value === undefined) {
      value = rawSimilarity(
        distance,
        (candidates[i] as MmrCandidate<H>).vector,
        (candidates[j] as MmrCandidate<H>).vector,
      );
      pairs.set(key, value);
    }
    return value;
  };
  const remaining = candidates.map((_, i) => i);
  const selected: number[] = [];
  const take = (position: number) => {
    selected.push(remaining[position] as number);
    remaining[position] = remaining[remaining.length - 1] as number;
    remaining.pop();
  };
  take(lastMaxPosition(remaining, (i) => relevance[i] as number));
  while (selected.length < limit && remaining.length > 0) {
    take(
      lastMaxPosition(remaining, (i) => {
        let closest = Number.NEGATIVE_INFINITY;
        for (const j of selected) closest = Math.max(closest, similarity(i, j));
        return Math.fround(
          Math.fround(lambda * (relevance[i] as number)) - Math.fround(Math.fround(1 - lambda) * closest),
        );
      }),
    );
  }
  return selected.map((i) => (candidates[i] as MmrCandidate<H>).hit);
}

/** The position in `list` of the largest key, the last one on ties. */
function lastMaxPosition(list: readonly number[], key: (index: number) => number): number {
  let best = 0;
  let bestKey = Number.NEGATIVE_INFINITY;
  list.forEach((index, position) => {
    const value = key(index);
    if (value >= bestKey) {
      best = position;
      bestKey = value;
    }
  });
  return best;
}
