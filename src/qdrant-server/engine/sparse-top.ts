/**
 * @module Exact top-k sparse search that skips the posting lists which cannot change the answer (MaxScore,
 * term at a time): terms are read best bound first, and once the k-th candidate is proven above all that the
 * unread terms could give any point, the longest lists (the most common words, the lowest weights) go unread.
 */
import { compareEntries, type PointEntry, type SparseVectorData } from './point-table.js';
import type { PostingView, SparseIndex } from './sparse-index.js';
import { scoreSparse } from './sparse-search.js';
import { type Scored, TopK } from './vector-scoring.js';

/** f32 unit roundoff. */
const ROUNDOFF = 2 ** -24;

/** One query dimension with a posting list: its weight and the most and least it adds to any point's score. */
interface Term {
  readonly posting: PostingView;
  readonly weight: number;
  readonly most: number;
  readonly least: number;
}

/** Per-index scratch: partial scores by slot, valid where `marks` holds this search's number. */
class Scratch {
  partial = new Float64Array(0);
  marks = new Uint32Array(0);
  touched = new Int32Array(0);
  #searches = 0;

  /** Readies the scratch for `slots` slots and returns this search's number. */
  begin(slots: number): number {
    if (slots > this.marks.length || this.#searches === 0xffff_ffff) {
      const capacity = Math.ceil(slots * 1.5) + 8;
      this.partial = new Float64Array(capacity);
      this.marks = new Uint32Array(capacity);
      this.touched = new Int32Array(capacity);
      this.#searches = 0;
    }
    return ++this.#searches;
  }
}

const scratches = new WeakMap<SparseIndex, Scratch>();

/** The terms of a query (indices ascending, already weighted) that have a posting list, best bound first. */
function readTerms(index: SparseIndex, query: SparseVectorData): Term[] {
  const terms: Term[] = [];
  for (let q = 0; q < query.indices.length; q++) {
    const posting = index.posting(query.indices[q] as number);
    if (posting === undefined || posting.size === 0) continue;
    const weight = query.values[q] as number;
    const a = Math.fround(weight * posting.maxWeight);
    const b = Math.fround(weight * posting.minWeight);
    terms.push({ posting, weight, most: Math.max(a, b, 0), least: Math.min(a, b, 0) });
  }
  // Ties: the shorter list first, so the long ones are the last read and the first skipped.
  return terms.sort((x, y) => y.most - x.most || x.posting.size - y.posting.size);
}

/**
 * The `limit` best points sharing at least one dimension with the query, passing `test`, ties by id, cut by
 * the strict threshold (`score > t`). Every returned score is `scoreSparse`'s, the f32 sum in index order, so
 * the answer is the one scoring every point gives. Bounds on the skipped terms and on the partial sums' rounding
 * (`margin`) only decide what need not be scored; `test` runs only on points that could enter the answer.
 */
export function searchSparse(
  index: SparseIndex,
  query: SparseVectorData,
  limit: number,
  test: ((entry: PointEntry) => boolean) | undefined,
  threshold?: number,
): Scored<PointEntry>[] {
  if (limit <= 0) return [];
  const terms = readTerms(index, query);
  const n = terms.length;
  const restMost = new Float64Array(n + 1);
  const restLeast = new Float64Array(n + 1);
  const restPostings = new Float64Array(n + 1);
  let magnitude = 0;
  for (let j = n - 1; j >= 0; j--) {
    const term = terms[j] as Term;
    restMost[j] = (restMost[j + 1] as number) + term.most;
    restLeast[j] = (restLeast[j + 1] as number) + term.least;
    restPostings[j] = (restPostings[j + 1] as number) + term.posting.size;
    magnitude += Math.max(term.most, -term.least);
  }
  // Each f32 product and sum of a score is off by at most ROUNDOFF times the magnitude; doubled, twice over.
  const margin = 4 * (n + 1) * ROUNDOFF * magnitude;
  const scratch = scratches.get(index) ?? new Scratch();
  scratches.set(index, scratch);
  const epoch = scratch.begin(index.slotCount);
  const { partial, marks, touched } = scratch;
  let met = 0;
  let read = n;
  let floor: number | undefined;
  /** Postings read, and candidates passed over by checks: checks may cost at most as much as reading. */
  let reads = 0;
  let checked = 0;
  for (let j = 0; j < n; j++) {
    // A check is a pass over the candidates: worth it only when the lists left are longer.
    if (j > 0 && met >= limit && (restPostings[j] as number) > met && checked + met <= reads) {
      checked += met;
      const proven = provenFloor(index, scratch, met, limit, restLeast[j] as number, margin, test, threshold);
      if (proven !== undefined && (restMost[j] as number) + margin < proven) {
        read = j;
        floor = proven;
        break;
      }
    }
    const { posting, weight } = terms[j] as Term;
    reads += posting.size;
    const { slots, weights, size } = posting;
    for (let i = 0; i < size; i++) {
      const slot = slots[i] as number;
      const product = Math.fround(weight * (weights[i] as number));
      if (marks[slot] !== epoch) {
        marks[slot] = epoch;
        partial[slot] = product;
        touched[met++] = slot;
      } else partial[slot] = (partial[slot] as number) + product;
    }
  }
  const rest = (restMost[read] as number) + margin;
  const top = new TopK<PointEntry>(limit, true, compareEntries);
  for (let i = 0; i < met; i++) {
    const slot = touched[i] as number;
    const most = (partial[slot] as number) + rest;
    if (floor !== undefined && most < floor) continue;
    if (threshold !== undefined && !(most > threshold)) continue;
    const worst = top.worst();
    // A tie with the worst kept point may still enter by id; only a lower score surely cannot.
    if (worst !== undefined && most < worst) continue;
    const doc = index.docAt(slot);
    const score = scoreSparse(query, doc) as number;
    if (threshold !== undefined && !(score > threshold)) continue;
    // A tie with the worst kept point that loses on id would be refused: no filter test for it (a collection of
    // look-alike parts ties often, and testing them cost a quarter of this search at 100,000 chunks).
    if (!top.accepts(doc.point, score)) continue;
    if (test !== undefined && !test(doc.point)) continue;
    top.offer(doc.point, score);
  }
  return top.items;
}

/**
 * A score that `limit` answerable candidates are proven to reach (each passes `test`, and the threshold by its
 * lower bound: its partial sum, the least the unread terms add, less the rounding margin); undefined while
 * fewer are proven. No point scoring below it can be in the answer.
 */
function provenFloor(
  index: SparseIndex,
  scratch: Scratch,
  met: number,
  limit: number,
  restLeast: number,
  margin: number,
  test: ((entry: PointEntry) => boolean) | undefined,
  threshold: number | undefined,
): number | undefined {
  if (met < limit) return undefined;
  const { partial, touched } = scratch;
  const heap = new Float64Array(limit);
  let size = 0;
  for (let i = 0; i < met; i++) {
    const slot = touched[i] as number;
    const least = (partial[slot] as number) + restLeast - margin;
    if (threshold !== undefined && !(least > threshold)) continue;
    if (size === limit && !(least > (heap[0] as number))) continue;
    if (test !== undefined && !test(index.docAt(slot).point)) continue;
    if (size < limit) pushMin(heap, size++, least);
    else replaceMin(heap, size, least);
  }
  return size === limit ? heap[0] : undefined;
}

/** Adds `value` to a binary min-heap of `size` values. */
function pushMin(heap: Float64Array, size: number, value: number): void {
  let at = size;
  while (at > 0) {
    const parent = (at - 1) >> 1;
    if ((heap[parent] as number) <= value) break;
    heap[at] = heap[parent] as number;
    at = parent;
  }
  heap[at] = value;
}

/** Replaces the smallest of a full binary min-heap with `value`. */
function replaceMin(heap: Float64Array, size: number, value: number): void {
  let at = 0;
  for (;;) {
    let child = 2 * at + 1;
    if (child >= size) break;
    if (child + 1 < size && (heap[child + 1] as number) < (heap[child] as number)) child++;
    if ((heap[child] as number) >= value) break;
    heap[at] = heap[child] as number;
    at = child;
  }
  heap[at] = value;
}
