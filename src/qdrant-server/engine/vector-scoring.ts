/**
 * @module Exact scores in plain JS and a bounded best-first list. Scores follow Qdrant's post-processing:
 * Cosine/Dot = dot product, Euclid = sqrt(|d²|), Manhattan = |d| (qdrant-subset.md §2), rounded to f32.
 */
import type { Distance } from './engine-api.js';

/** Scores one stored vector (at `offset` in `data`) against the query. */
export type ScoreFunction = (data: Float32Array, offset: number, query: Float32Array) => number;

// Four accumulators let V8 keep independent multiply-adds in flight; f64 sums are at least as accurate as Qdrant's f32 SIMD.
function dot(data: Float32Array, offset: number, query: Float32Array): number {
  const n = query.length;
  let a = 0;
  let b = 0;
  let c = 0;
  let d = 0;
  let i = 0;
  for (; i + 3 < n; i += 4) {
    a += (data[offset + i] as number) * (query[i] as number);
    b += (data[offset + i + 1] as number) * (query[i + 1] as number);
    c += (data[offset + i + 2] as number) * (query[i + 2] as number);
    d += (data[offset + i + 3] as number) * (query[i + 3] as number);
  }
  for (; i < n; i++) a += (data[offset + i] as number) * (query[i] as number);
  return Math.fround(a + b + c + d);
}

function euclid(data: Float32Array, offset: number, query: Float32Array): number {
  const n = query.length;
  let a = 0;
  let b = 0;
  let i = 0;
  for (; i + 1 < n; i += 2) {
    const x = (data[offset + i] as number) - (query[i] as number);
    const y = (data[offset + i + 1] as number) - (query[i + 1] as number);
    a += x * x;
    b += y * y;
  }
  for (; i < n; i++) {
    const x = (data[offset + i] as number) - (query[i] as number);
    a += x * x;
  }
  return Math.fround(Math.sqrt(Math.abs(a + b)));
}

function manhattan(data: Float32Array, offset: number, query: Float32Array): number {
  const n = query.length;
  let a = 0;
  for (let i = 0; i < n; i++) a += Math.abs((data[offset + i] as number) - (query[i] as number));
  return Math.fround(a);
}

/** The scoring function for a distance. */
export function scorerFor(distance: Distance): ScoreFunction {
  if (distance === 'Euclid') return euclid;
  if (distance === 'Manhattan') return manhattan;
  return dot;
}

/** Whether larger scores are better (Cosine, Dot) or smaller (Euclid, Manhattan). */
export function isSimilarity(distance: Distance): boolean {
  return distance === 'Cosine' || distance === 'Dot';
}

/** Qdrant's strict score_threshold for a vector query: `score > t` for similarities, `score < t` for distances. */
export function passesThreshold(distance: Distance, score: number, threshold: number | undefined): boolean {
  if (threshold === undefined) return true;
  return isSimilarity(distance) ? score > threshold : score < threshold;
}

/** One scored candidate; `item` is whatever the caller ranks (a slot number, a point). */
export interface Scored<T> {
  readonly item: T;
  readonly score: number;
}

/**
 * Keeps the best `capacity` candidates, best first. Equal scores are ordered by `tieBreak`
 * (the engine passes id ascending) so results are deterministic.
 */
export class TopK<T> {
  readonly items: Scored<T>[] = [];

  constructor(
    private readonly capacity: number,
    private readonly higherIsBetter: boolean,
    private readonly tieBreak: (a: T, b: T) => number,
  ) {}

  get full(): boolean {
    return this.items.length >= this.capacity;
  }

  /** The current worst kept score (undefined while not full). */
  worst(): number | undefined {
    return this.full ? this.items[this.items.length - 1]?.score : undefined;
  }

  offer(item: T, score: number): void {
    if (this.capacity <= 0) return;
    if (this.full && !this.beats(item, score, this.items[this.items.length - 1] as Scored<T>)) return;
    let at = this.items.length;
    while (at > 0 && this.beats(item, score, this.items[at - 1] as Scored<T>)) at--;
    this.items.splice(at, 0, { item, score });
    if (this.items.length > this.capacity) this.items.pop();
  }

  private beats(item: T, score: number, other: Scored<T>): boolean {
    if (score !== other.score) return this.higherIsBetter ? score > other.score : score < other.score;
    return this.tieBreak(item, other.item) < 0;
  }
}
