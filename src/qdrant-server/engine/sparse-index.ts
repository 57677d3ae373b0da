/**
 * @module One sparse vector's inverted index: dimension → the stored vectors that have it. Kept exact on every
 * upsert and delete, so the document counts the `idf` modifier reads are always the collection's current ones.
 */
import type { PointEntry } from './point-table.js';

/** A stored sparse vector: indices strictly ascending (Qdrant sorts them at upsert), f32 weights. */
export interface SparseDoc {
  readonly indices: Uint32Array;
  readonly values: Float32Array;
  readonly point: PointEntry;
}

/** The stored vectors of one sparse vector name, by dimension. */
export class SparseIndex {
  private readonly postings = new Map<number, Set<SparseDoc>>();
  private count = 0;

  /** How many points hold this sparse vector (Qdrant's `vector_count`, the N of idf), empty ones included. */
  get documentCount(): number {
    return this.count;
  }

  add(doc: SparseDoc): void {
    this.count++;
    for (const index of doc.indices) {
      let posting = this.postings.get(index);
      if (posting === undefined) {
        posting = new Set();
        this.postings.set(index, posting);
      }
      posting.add(doc);
    }
  }

  remove(doc: SparseDoc): void {
    this.count--;
    for (const index of doc.indices) {
      const posting = this.postings.get(index);
      if (posting === undefined) continue;
      posting.delete(doc);
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

  /** The stored vectors that have this dimension. */
  posting(index: number): ReadonlySet<SparseDoc> | undefined {
    return this.postings.get(index);
  }
}
