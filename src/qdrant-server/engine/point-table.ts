/** @module A collection's points in memory: id → point, vectors in slots, and a cached id-sorted order for scroll. */
import type { Payload } from '../filter/filter-api.js';
import { type PointId, comparePointIds, pointIdKey } from './point-id.js';
import { VectorSlots } from './vector-slots.js';

/** One point. It is also the `FilterablePoint` handed to compiled filters, so filtering allocates nothing. */
export interface PointEntry {
  readonly id: PointId;
  readonly key: string;
  payload: Payload;
  /** Operation number of the point's last write. */
  version: number;
  /** Index into the vector slots, or -1 when the point has no vector. */
  slot: number;
  readonly hasVector: boolean;
}

/** Orders points by id the way Qdrant does. */
export function compareEntries(a: PointEntry, b: PointEntry): number {
  return comparePointIds(a.id, b.id);
}

/** In-memory points of one collection. */
export class PointTable {
  private readonly byKey = new Map<string, PointEntry>();
  private sorted: PointEntry[] | null = null;
  /** null for a collection without a dense vector. */
  readonly slots: VectorSlots<PointEntry> | null;

  constructor(dim: number | null) {
    this.slots = dim === null ? null : new VectorSlots<PointEntry>(dim);
  }

  get size(): number {
    return this.byKey.size;
  }

  get(id: PointId): PointEntry | undefined {
    return this.byKey.get(pointIdKey(id));
  }

  getByKey(key: string): PointEntry | undefined {
    return this.byKey.get(key);
  }

  values(): IterableIterator<PointEntry> {
    return this.byKey.values();
  }

  /** Inserts or replaces a whole point (Qdrant's upsert semantics). */
  put(id: PointId, vector: Float32Array | null, payload: Payload, version: number): PointEntry {
    const key = pointIdKey(id);
    const old = this.byKey.get(key);
    const entry: PointEntry = { id, key, payload, version, slot: -1, hasVector: vector !== null };
    if (old === undefined) this.sorted = null;
    if (vector !== null && this.slots === null)
      throw new Error('point table: vector for a collection without vectors');
    if (old !== undefined && old.slot >= 0) {
      const slots = this.slots as VectorSlots<PointEntry>;
      if (vector !== null) slots.replace(old.slot, entry, vector);
      else slots.remove(old.slot);
    } else if (vector !== null) {
      (this.slots as VectorSlots<PointEntry>).add(entry, vector);
    }
    this.byKey.set(key, entry);
    if (old !== undefined && this.sorted !== null) {
      // Same id, same position: swap the object in place rather than re-sorting.
      const at = this.indexOf(old);
      if (at >= 0) this.sorted[at] = entry;
    }
    return entry;
  }

  delete(entry: PointEntry): void {
    if (entry.slot >= 0) this.slots?.remove(entry.slot);
    this.byKey.delete(entry.key);
    this.sorted = null;
  }

  /** Points in ascending id order; cached until a point is added or removed. */
  ordered(): readonly PointEntry[] {
    if (this.sorted === null) this.sorted = [...this.byKey.values()].sort(compareEntries);
    return this.sorted;
  }

  /** Index of the first point whose id is >= `id` in `ordered()`. */
  lowerBound(id: PointId): number {
    const list = this.ordered();
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (comparePointIds((list[mid] as PointEntry).id, id) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private indexOf(entry: PointEntry): number {
    const at = this.lowerBound(entry.id);
    return this.sorted !== null && this.sorted[at]?.key === entry.key ? at : -1;
  }
}
