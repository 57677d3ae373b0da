/**
 * @module The port to the store's ordered reads, for the memory viewer's timeline: points newest first by
 * an indexed payload key (Qdrant's `order_by` scroll needs a range index on that key).
 */
import type { StoredRecord, StoreFilter } from './point-store.js';

/** One `order_by` scroll: at most `limit` points passing `filter`, by `key` from `startFrom` on. */
export interface OrderedScrollOptions {
  readonly key: string;
  readonly direction: 'asc' | 'desc';
  readonly limit: number;
  /** Inclusive bound on the key's value: Qdrant pages an ordered scroll this way, not by offset. */
  readonly startFrom?: number;
  readonly filter?: StoreFilter;
}

/** A point of an ordered scroll, with the value of the key it was ordered by (one of them, if it has several). */
export interface OrderedRecord extends StoredRecord {
  readonly orderValue: number;
}

export interface TimelineStore {
  /**
   * Asks for a float payload index on `key` (ints and floats alike, as `order_by` and range filters read
   * them), replacing an index of another type; returns without waiting for the build. No collection is fine.
   */
  requestFloatIndex(collection: string, key: string): Promise<void>;
  /** The same for a keyword index (exact-match and `is_empty` filters on `key` read it). */
  requestKeywordIndex(collection: string, key: string): Promise<void>;
  /** Points ordered by `key`; points without a number there are left out, as Qdrant does. */
  scrollOrdered(collection: string, options: OrderedScrollOptions): Promise<OrderedRecord[]>;
}
