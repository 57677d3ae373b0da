/**
 * @module The port to the store's ordered reads, for the memory viewer's timeline: points newest first by
 * an indexed payload key (Qdrant's `order_by` scroll needs a range index on that key).
 */
import type { StoredPointId, StoredRecord, StoreFilter } from './point-store.js';

/** One `order_by` scroll: at most `limit` points passing `filter`, by `key` from `startFrom` on. */
export interface OrderedScrollOptions {
  readonly key: string;
  readonly direction: 'asc' | 'desc';
  readonly limit: number;
  /** Inclusive bound on the key's value: Qdrant pages an ordered scroll this way, not by offset. */
  readonly startFrom?: number;
  readonly filter?: StoreFilter;
}

export interface TimelineStore {
  /** Creates an integer payload index on `key` (needed by `order_by`); an existing one, or no collection, is fine. */
  ensureIntegerIndex(collection: string, key: string): Promise<void>;
  /** Points ordered by `key`; points without a number there are left out, as Qdrant does. */
  scrollOrdered(collection: string, options: OrderedScrollOptions): Promise<StoredRecord[]>;
  /** Points by id with their payloads; missing ids are left out. */
  retrievePoints(collection: string, ids: readonly StoredPointId[]): Promise<StoredRecord[]>;
}
