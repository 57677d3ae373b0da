/**
 * @module Fusion of ranked lists into one, computed in f32 as Qdrant does: Reciprocal Rank Fusion
 * (`lib/segment/src/common/reciprocal_rank_fusion.rs`) and Distribution-Based Score Fusion
 * (`lib/segment/src/common/score_fusion.rs`). Ties are broken by `tieBreak` (Qdrant leaves them unspecified).
 * Prefetches with a huge limit hand over lists of the whole collection, so both run in time slices.
 */
import { badInput } from '../qdrant-error.js';
import { sortInSlices } from './sliced-sort.js';
import { CHECK_EVERY, mapInSlices, pauseIfDue } from './time-slicer.js';
import type { Scored } from './vector-scoring.js';

/** The key a point is deduplicated by across lists (the point id's key). */
export type KeyOf<T> = (item: T) => string;

/**
 * One position's RRF score, `1 / ((position + 1) / weight + k - 1)`, 0-based positions; with weight 1 this is
 * `1 / (position + k)`. A weight of 0 or less contributes nothing.
 */
export function rankScore(position: number, k: number, weight = 1): number {
  if (weight <= 0) return 0;
  const scaled = Math.fround(Math.fround(position + 1) / Math.fround(weight));
  return Math.fround(1 / Math.fround(Math.fround(scaled + k) - 1));
}

/** RRF over every list: each point sums its rank scores; input scores are ignored. Best first. */
export async function fuseRanks<T, H extends Scored<T> = Scored<T>>(
  lists: readonly (readonly H[])[],
  k: number,
  weights: readonly number[] | undefined,
  keyOf: KeyOf<T>,
  tieBreak: (a: T, b: T) => number,
): Promise<H[]> {
  // `reciprocal_rank_fusion.rs::rrf_scoring`: weights, when given, are one per prefetch.
  if (weights !== undefined && weights.length !== lists.length) {
    throw badInput(
      `Number of weights in RRF should match number of pre-fetches: got ${weights.length}, expected ${lists.length}`,
    );
  }
  const fused = new Map<string, { first: H; score: number }>();
  for (let source = 0; source < lists.length; source++) {
    const list = lists[source] as readonly H[];
    const weight = weights?.[source] ?? 1;
    for (let position = 0; position < list.length; position++) {
      if (position % CHECK_EVERY === 0) await pauseIfDue();
      const hit = list[position] as H;
      const key = keyOf(hit.item);
      const current = fused.get(key);
      const score = rankScore(position, k, weight);
      // Qdrant keeps the first ScoredPoint of a point (its version, its order_value) and replaces its score.
      if (current === undefined) fused.set(key, { first: hit, score });
      else current.score = Math.fround(current.score + score);
    }
  }
  return sortBest(fused, tieBreak);
}

/**
 * DBSF: each list's scores are mapped to [0, 1] with mean ± 3 sample standard deviations as the extremes
 * (a list of one scores 0.5; equal extremes give 0.5), then summed per point. Best first.
 */
export async function fuseDistributions<T, H extends Scored<T> = Scored<T>>(
  lists: readonly (readonly H[])[],
  keyOf: KeyOf<T>,
  tieBreak: (a: T, b: T) => number,
): Promise<H[]> {
  const fused = new Map<string, { first: H; score: number }>();
  for (const list of lists) {
    await pauseIfDue();
    const normalized = normalizeDistribution(list.map((hit) => hit.score));
    for (let i = 0; i < list.length; i++) {
      if (i % CHECK_EVERY === 0) await pauseIfDue();
      const hit = list[i] as H;
      const key = keyOf(hit.item);
      const score = normalized[i] as number;
      const current = fused.get(key);
      if (current === undefined) fused.set(key, { first: hit, score });
      else current.score = Math.fround(current.score + score);
    }
  }
  return sortBest(fused, tieBreak);
}

/** Qdrant's `distr_norm`: Welford's one-pass mean and sample variance in f32, then min-max over mean ± 3σ. */
export function normalizeDistribution(scores: readonly number[]): number[] {
  if (scores.length < 2) return scores.map(() => 0.5);
  let mean = 0;
  let aggregate = 0;
  scores.forEach((score, i) => {
    const oldDelta = Math.fround(score - mean);
    mean = Math.fround(mean + Math.fround(oldDelta / (i + 1)));
    const delta = Math.fround(score - mean);
    aggregate = Math.fround(aggregate + Math.fround(oldDelta * delta));
  });
  const variance = Math.fround(aggregate / Math.fround(scores.length - 1));
  const deviation = Math.fround(Math.sqrt(variance));
  const min = Math.fround(mean - Math.fround(3 * deviation));
  const max = Math.fround(mean + Math.fround(3 * deviation));
  if (min === max) return scores.map(() => 0.5);
  const range = Math.fround(max - min);
  return scores.map((score) => Math.fround(Math.fround(score - min) / range));
}

/** The fused hits, best first: each point's first hit as it came (version, order_value) with the fused score. */
async function sortBest<T, H extends Scored<T>>(
  fused: Map<string, { first: H; score: number }>,
  tieBreak: (a: T, b: T) => number,
): Promise<H[]> {
  const hits = await mapInSlices([...fused.values()], ({ first, score }) => ({ ...first, score }));
  return sortInSlices(hits, (a, b) => b.score - a.score || tieBreak(a.item, b.item));
}
