/**
 * @module One sparse vector's inverted index: dimension → the stored vectors that have it, with their weights.
 * Kept exact on every upsert and delete, so the document counts the `idf` modifier reads are always the
 * collection's current ones.
 */
import type { PointEntry } from './point-table.js';

/** A stored sparse vector: indices strictly ascending (Qdrant sorts them at upsert), f32 weights. */
export interface SparseDoc {
  readonly indices: Uint32Array;
  readonly values: Float32Array;
  readonly point: PointEntry;
  /** Scratch of one search (the engine is single-threaded): the number of the last search that met it. */
  mark: number;
}

/**
 * The stored vectors having one dimension, with their weight there, in parallel arrays so a search walks them
 * without allocating; `at` finds a vector's position for a swap-remove.
 */
export class Posting {
  readonly docs: SparseDoc[] = [];
  readonly weights: number[] = [];
  /** Bounds on every weight ever added; removals leave them loose, which keeps them valid bounds. */
  maxWeight = Number.NEGATIVE_INFINITY;
  minWeight = Number.POSITIVE_INFINITY;
  private readonly at = new Map<SparseDoc, number>();

  get size(): number {
    return this.docs.length;
  }

  add(doc: SparseDoc, weight: number): void {
    this.at.set(doc, this.docs.length);
    this.docs.push(doc);
    this.weights.push(weight);
    if (weight > this.maxWeight) this.maxWeight = weight;
    if (weight < this.minWeight) this.minWeight = weight;
  }

  remove(doc: SparseDoc): void {
    const at = this.at.get(doc);
    if (at === undefined) return;
    const last = this.docs.length - 1;
    if (at !== last) {
      const moved = this.docs[last] as SparseDoc;
      this.docs[at] = moved;
      this.weights[at] = this.weights[last] as number;
      this.at.set(moved, at);
    }
    this.docs.pop();
    this.weights.pop();
    this.at.delete(doc);
  }
}

/** The stored vectors of one sparse vector name, by dimension. */
export class SparseIndex {
  private readonly postings = new Map<number, Posting>();
  private count = 0;
  /** Numbers the searches, so a doc's scratch `mark` needs no reset between searches. */
  private searches = 0;

  /** How many points hold this sparse vector (Qdrant's `vector_count`, the N of idf), empty ones included. */
  get documentCount(): number {
    return this.count;
  }

  add(doc: SparseDoc): void {
    this.count++;
    for (let i = 0; i < doc.indices.length; i++) {
      const index = doc.indices[i] as number;
      let posting = this.postings.get(index);
      if (posting === undefined) {
        posting = new Posting();
        this.postings.set(index, posting);
      }
      posting.add(doc, doc.values[i] as number);
    }
  }

  remove(doc: SparseDoc): void {
    this.count--;
    for (const index of doc.indices) {
      const posting = this.postings.get(index);
      if (posting === undefined) continue;
      posting.remove(doc);
      if (posting.size === 0) this.postings.delete(index);
    }
  }

  /**
   * How many stored vectors have this dimension: a posting list's length, which counts a stored weight of 0
   * too (Qdrant's posting lists keep them).
   */
  documentFrequency(index: number): number {
    return this.postings.get(index)?.size ?? 0;
  }

  /** The stored vectors that have this dimension, with their weight there. */
  posting(index: number): Posting | undefined {
    return this.postings.get(index);
  }

  /** A fresh positive number for one search's scratch marks. */
  nextSearch(): number {
    if (this.searches >= 0x3fff_ffff) {
      // After a billion searches, clear every mark rather than let an old number come back.
      for (const posting of this.postings.values()) for (const doc of posting.docs) doc.mark = 0;
      this.searches = 0;
    }
    this.searches++;
    return this.searches;
  }
}
