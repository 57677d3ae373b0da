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
 * Keeps the best `capacity` candidates; `items` lists them best first. Equal scores are ordered by `tieBreak`
 * (the engine passes id ascending) so results are deterministic. A binary heap with the worst kept candidate
 * at its root: offering n candidates costs O(n log k) with k the number actually kept, and nothing is
 * allocated by `capacity`, so a client's `limit: 1e9` costs what the collection's size costs.
 */
export class TopK<T> {
  readonly #heap: Scored<T>[] = [];

  readonly #capacity: number;
  readonly #higherIsBetter: boolean;
  readonly #tieBreak: (a: T, b: T) => number;

  constructor(capacity: number, higherIsBetter: boolean, tieBreak: (a: T, b: T) => number) {
    this.#capacity = capacity;
    this.#higherIsBetter = higherIsBetter;
    this.#tieBreak = tieBreak;
  }

  get full(): boolean {
    return this.#heap.length >= this.#capacity;
  }

  /** The kept candidates, best first. */
  get items(): Scored<T>[] {
    return [...this.#heap].sort((a, b) => (this.#beats(a.item, a.score, b) ? -1 : 1));
  }

  /** The current worst kept score (undefined while not full). */
  worst(): number | undefined {
    return this.full ? this.#heap[0]?.score : undefined;
  }

  /** Whether `offer(item, score)` would keep it: while not full, always; else only if it beats the worst kept. */
  accepts(item: T, score: number): boolean {
    return !this.full || this.#beats(item, score, this.#heap[0] as Scored<T>);
  }

  offer(item: T, score: number): void {
    if (this.#capacity <= 0) return;
    const heap = this.#heap;
    if (heap.length < this.#capacity) {
      heap.push({ item, score });
      this.#siftUp(heap.length - 1);
    } else if (this.#beats(item, score, heap[0] as Scored<T>)) {
      heap[0] = { item, score };
      this.#siftDown(0);
    }
  }

  /** Whether `a` should sit above `b` in the heap: it is the worse of the two. */
  #isWorse(a: Scored<T>, b: Scored<T>): boolean {
    return this.#beats(b.item, b.score, a);
  }

  #siftUp(at: number): void {
    const heap = this.#heap;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!this.#isWorse(heap[at] as Scored<T>, heap[parent] as Scored<T>)) return;
      [heap[at], heap[parent]] = [heap[parent] as Scored<T>, heap[at] as Scored<T>];
      at = parent;
    }
  }

  #siftDown(at: number): void {
    const heap = this.#heap;
    for (;;) {
      const left = 2 * at + 1;
      const right = left + 1;
      let worst = at;
      if (left < heap.length && this.#isWorse(heap[left] as Scored<T>, heap[worst] as Scored<T>))
        worst = left;
      if (right < heap.length && this.#isWorse(heap[right] as Scored<T>, heap[worst] as Scored<T>))
        worst = right;
      if (worst === at) return;
      [heap[at], heap[worst]] = [heap[worst] as Scored<T>, heap[at] as Scored<T>];
      at = worst;
    }
  }

  #beats(item: T, score: number, other: Scored<T>): boolean {
    if (score !== other.score) return this.#higherIsBetter ? score > other.score : score < other.score;
    return this.#tieBreak(item, other.item) < 0;
  }
}
