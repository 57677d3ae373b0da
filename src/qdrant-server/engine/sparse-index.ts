/**
 * @module One sparse vector's inverted index: dimension → the slots of the stored vectors that have it, with
 * their weights, in typed arrays. Kept exact on every upsert and delete, so the document counts the `idf`
 * modifier reads are always the collection's current ones. A search accumulates every candidate's score in
 * one pass over its query's posting lists, into scratch arrays the index keeps (nothing per search grows with
 * the collection).
 */
import type { PointEntry, SparseVectorData } from './point-table.js';

const INITIAL_CAPACITY = 8;
/** Posting lists and the scratch arrays grow by half when full: amortized appends, at most a third unused. */
const GROWTH = 1.5;

/** A stored sparse vector: indices strictly ascending (Qdrant sorts them at upsert), f32 weights. */
export class SparseDoc implements SparseVectorData {
  /** Where each of its dimensions' posting lists holds it, kept true by swap-removes. */
  readonly positions: Int32Array;

  constructor(
    readonly indices: Uint32Array,
    readonly values: Float32Array,
    readonly point: PointEntry,
    /** Its number in the index: posting lists and search scratch are by slot. */
    readonly slot: number,
  ) {
    this.positions = new Int32Array(indices.length);
  }
}

/** The slots having one dimension, with their weight there; `size` of the arrays are in use. */
class Posting {
  slots = new Int32Array(INITIAL_CAPACITY);
  weights = new Float32Array(INITIAL_CAPACITY);
  size = 0;

  /** Appends and returns the position. */
  push(slot: number, weight: number): number {
    if (this.size === this.slots.length) {
      const capacity = Math.ceil(this.size * GROWTH);
      const slots = new Int32Array(capacity);
      slots.set(this.slots);
      this.slots = slots;
      const weights = new Float32Array(capacity);
      weights.set(this.weights);
      this.weights = weights;
    }
    this.slots[this.size] = slot;
    this.weights[this.size] = weight;
    return this.size++;
  }

  /** Moves the last entry into `at`; returns the moved slot, or -1 when `at` was the last. */
  removeAt(at: number): number {
    const last = --this.size;
    if (at === last) return -1;
    const moved = this.slots[last] as number;
    this.slots[at] = moved;
    this.weights[at] = this.weights[last] as number;
    return moved;
  }
}

/** Where `index` sits in a sorted index list (it is known to be there). */
function positionOf(indices: Uint32Array, index: number): number {
  let lo = 0;
  let hi = indices.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((indices[mid] as number) < index) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The stored vectors of one sparse vector name, by dimension. */
export class SparseIndex {
  readonly #postings = new Map<number, Posting>();
  readonly #docs: (SparseDoc | undefined)[] = [];
  readonly #freeSlots: number[] = [];
  #count = 0;
  /** A search's scores by slot, valid for the slots in `touched[0..n)` that `accumulate` returned. */
  #scoreBySlot = new Float32Array(0);
  #touchedSlots = new Int32Array(0);
  /** The number of the last search that met each slot, so the scratch needs no reset between searches. */
  #marks = new Uint32Array(0);
  #searches = 0;

  /** How many points hold this sparse vector (Qdrant's `vector_count`, the N of idf), empty ones included. */
  get documentCount(): number {
    return this.#count;
  }

  /** Stores a point's vector (indices ascending) and returns it as stored. */
  add(vector: SparseVectorData, point: PointEntry): SparseDoc {
    const slot = this.#freeSlots.pop() ?? this.#docs.length;
    const doc = new SparseDoc(vector.indices, vector.values, point, slot);
    this.#docs[slot] = doc;
    if (this.#docs.length > this.#marks.length) this.#growScratch();
    this.#count++;
    for (let i = 0; i < doc.indices.length; i++) {
      const index = doc.indices[i] as number;
      let posting = this.#postings.get(index);
      if (posting === undefined) {
        posting = new Posting();
        this.#postings.set(index, posting);
      }
      doc.positions[i] = posting.push(slot, doc.values[i] as number);
    }
    return doc;
  }

  remove(doc: SparseDoc): void {
    if (this.#docs[doc.slot] !== doc) return;
    for (let i = 0; i < doc.indices.length; i++) {
      const index = doc.indices[i] as number;
      const posting = this.#postings.get(index) as Posting;
      const at = doc.positions[i] as number;
      const moved = posting.removeAt(at);
      if (moved >= 0) {
        const other = this.#docs[moved] as SparseDoc;
        other.positions[positionOf(other.indices, index)] = at;
      }
      if (posting.size === 0) this.#postings.delete(index);
    }
    this.#docs[doc.slot] = undefined;
    this.#freeSlots.push(doc.slot);
    this.#count--;
  }

  /**
   * How many stored vectors have this dimension: a posting list's length, which counts a stored weight of 0
   * too (Qdrant's posting lists keep them).
   */
  documentFrequency(index: number): number {
    return this.#postings.get(index)?.size ?? 0;
  }

  /**
   * Scores every stored vector sharing a dimension with the query (indices ascending) and returns how many
   * there are: their slots are `touched()[0..n)`, their scores `scores()[slot]`, valid until the next call.
   * Each score is the f32 sum of `query weight × stored weight` over the shared dimensions in ascending index
   * order, the very sequence of roundings `scoreSparse` makes.
   */
  accumulate(query: SparseVectorData): number {
    const epoch = this.#nextSearch();
    const scores = this.#scoreBySlot;
    const marks = this.#marks;
    const touched = this.#touchedSlots;
    let met = 0;
    for (let q = 0; q < query.indices.length; q++) {
      const posting = this.#postings.get(query.indices[q] as number);
      if (posting === undefined) continue;
      const weight = query.values[q] as number;
      const { slots, weights, size } = posting;
      for (let i = 0; i < size; i++) {
        const slot = slots[i] as number;
        const product = Math.fround(weight * (weights[i] as number));
        if (marks[slot] !== epoch) {
          marks[slot] = epoch;
          // 0 + product, as scoreSparse starts from 0: a -0 product scores +0.
          scores[slot] = 0 + product;
          touched[met++] = slot;
        } else {
          // A Float32Array store rounds the f64 sum to f32, as Math.fround would.
          scores[slot] = (scores[slot] as number) + product;
        }
      }
    }
    return met;
  }

  /**
   * Whether some stored vector passing `test` has this dimension: its posting list walked until one does, so a
   * held term costs a check or a few, and only a term held nowhere within the filter costs its whole list.
   */
  holds(index: number, test: ((point: PointEntry) => boolean) | undefined): boolean {
    const posting = this.#postings.get(index);
    if (posting === undefined) return false;
    if (test === undefined) return posting.size > 0;
    for (let i = 0; i < posting.size; i++) {
      if (test((this.#docs[posting.slots[i] as number] as SparseDoc).point)) return true;
    }
    return false;
  }

  /** The slots met by the last `accumulate`. */
  touched(): Int32Array {
    return this.#touchedSlots;
  }

  /** The scores of the last `accumulate`, by slot. */
  scores(): Float32Array {
    return this.#scoreBySlot;
  }

  /** The stored vector in a slot met by a search. */
  docAt(slot: number): SparseDoc {
    return this.#docs[slot] as SparseDoc;
  }

  #nextSearch(): number {
    if (this.#searches === 0xffff_ffff) {
      // After four billion searches, clear every mark rather than let an old number come back.
      this.#marks.fill(0);
      this.#searches = 0;
    }
    return ++this.#searches;
  }

  #growScratch(): void {
    const capacity = Math.max(INITIAL_CAPACITY, Math.ceil(this.#docs.length * GROWTH));
    // Growth happens between searches, so no mark needs keeping (epochs start at 1).
    this.#marks = new Uint32Array(capacity);
    this.#scoreBySlot = new Float32Array(capacity);
    this.#touchedSlots = new Int32Array(capacity);
  }
}
