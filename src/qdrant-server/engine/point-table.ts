/**
 * @module A collection's points in memory: id → point, each dense vector name's vectors in its own slots,
 * each sparse vector name in its own inverted index, and a cached id-sorted order for scroll.
 */
import type { Payload } from '../filter/filter-api.js';
import { ConditionSets } from './condition-sets.js';
import { GraphIndex, type GraphOptions } from './graph-index.js';
import { IdOrder } from './id-order.js';
import { comparePointIds, type PointId, pointIdKey } from './point-id.js';
import { type SparseDoc, SparseIndex } from './sparse-index.js';
import { VectorSlots } from './vector-slots.js';

/** Where one of a point's dense vectors sits; VectorSlots writes `slot` back when a swap-remove moves it. */
export interface DenseSlot {
  slot: number;
  graphKey: number;
  readonly point: PointEntry;
}

/** A sparse vector before it is stored: indices ascending, values f32. */
export interface SparseVectorData {
  readonly indices: Uint32Array;
  readonly values: Float32Array;
}

/** A point's prepared vectors by name. */
export interface PointVectors {
  readonly dense: ReadonlyMap<string, Float32Array>;
  readonly sparse: ReadonlyMap<string, SparseVectorData>;
}

/** Shared by every point without sparse vectors, so the common dense-only point allocates no second map. */
const NO_SPARSE: ReadonlyMap<string, SparseDoc> = new Map();

/** One point. It is also the `FilterablePoint` handed to compiled filters, so filtering allocates nothing. */
export class PointEntry {
  /** Dense vectors by name (`""` is the unnamed one). */
  readonly dense = new Map<string, DenseSlot>();
  /** Sparse vectors by name. */
  sparse: ReadonlyMap<string, SparseDoc> = NO_SPARSE;

  constructor(
    readonly id: PointId,
    readonly key: string,
    public payload: Payload,
    /** Operation number of the point's last write. */
    public version: number,
  ) {}

  /** Whether the point has a vector of that name, for `has_vector`. */
  hasVector(name: string): boolean {
    return this.dense.has(name) || this.sparse.has(name);
  }
}

/** Orders points by id the way Qdrant does. */
export function compareEntries(a: PointEntry, b: PointEntry): number {
  return comparePointIds(a.id, b.id);
}

/** In-memory points of one collection. */
export class PointTable {
  readonly #byKey = new Map<string, PointEntry>();
  /** Every point by id, for scroll; built and kept up to date in time slices. */
  readonly idOrder = new IdOrder<PointEntry>(
    (key) => this.#byKey.get(key),
    () => this.#byKey.values(),
  );
  /** Each dense vector name's slots. */
  readonly dense: ReadonlyMap<string, VectorSlots<DenseSlot>>;
  /** Each dense vector name's approximate index (only those given graph options). */
  readonly graphs = new Map<string, GraphIndex<DenseSlot>>();
  /** Each sparse vector name's index. */
  readonly sparse: ReadonlyMap<string, SparseIndex>;
  /** The points matching `is_empty` / `is_null` on indexed keys that searches have asked for. */
  readonly conditions = new ConditionSets();
  /** Bumped by every put, delete and payload edit: what was computed from the points at one value still holds. */
  #writes = 0;

  constructor(
    denseDims: ReadonlyMap<string, number>,
    sparseNames: Iterable<string>,
    graphOptions: ReadonlyMap<string, GraphOptions> = new Map(),
  ) {
    this.dense = new Map([...denseDims].map(([name, dim]) => [name, new VectorSlots<DenseSlot>(dim)]));
    this.sparse = new Map([...sparseNames].map((name) => [name, new SparseIndex()]));
    for (const [name, options] of graphOptions) {
      const slots = this.dense.get(name);
      if (slots === undefined) continue;
      const graph = new GraphIndex(slots, options);
      slots.observer = graph;
      this.graphs.set(name, graph);
    }
  }

  /** Stops the approximate indexes' background work (the collection is dropped or the store closes). */
  close(): void {
    for (const graph of this.graphs.values()) graph.close();
  }

  get size(): number {
    return this.#byKey.size;
  }

  /** How many writes the table has taken (a put, a delete, a payload edit each). */
  get writes(): number {
    return this.#writes;
  }

  get(id: PointId): PointEntry | undefined {
    return this.#byKey.get(pointIdKey(id));
  }

  getByKey(key: string): PointEntry | undefined {
    return this.#byKey.get(key);
  }

  values(): IterableIterator<PointEntry> {
    return this.#byKey.values();
  }

  /** Room for `count` points' vectors of every dense name, before loading that many. */
  reserve(count: number): void {
    for (const slots of this.dense.values()) slots.reserve(count);
  }

  /** Gives back the vector capacity loading did not use (points without some named vector). */
  trim(): void {
    for (const slots of this.dense.values()) slots.trim();
  }

  /** Inserts or replaces a whole point (Qdrant's upsert semantics); vector names must exist in the table. */
  put(id: PointId, vectors: PointVectors, payload: Payload, version: number): PointEntry {
    const key = pointIdKey(id);
    this.#writes++;
    const old = this.#byKey.get(key);
    const entry = new PointEntry(id, key, payload, version);
    for (const [name, vector] of vectors.dense) {
      const slots = this.dense.get(name);
      if (slots === undefined) throw new Error(`point table: no dense vector named "${name}"`);
      const previous = old?.dense.get(name);
      const owner: DenseSlot = { slot: -1, graphKey: -1, point: entry };
      // Reusing the old slot keeps the block dense without a swap.
      if (previous !== undefined) slots.replace(previous.slot, owner, vector);
      else slots.add(owner, vector);
      entry.dense.set(name, owner);
    }
    if (old !== undefined) {
      for (const [name, previous] of old.dense) {
        if (!vectors.dense.has(name)) this.dense.get(name)?.remove(previous.slot);
      }
      this.#removeSparse(old);
      this.conditions.removed(old);
    }
    if (vectors.sparse.size > 0) {
      const docs = new Map<string, SparseDoc>();
      for (const [name, vector] of vectors.sparse) {
        const index = this.sparse.get(name);
        if (index === undefined) throw new Error(`point table: no sparse vector named "${name}"`);
        docs.set(name, index.add(vector, entry));
      }
      entry.sparse = docs;
    }
    this.#byKey.set(key, entry);
    this.conditions.added(entry);
    // A rewritten point keeps its place: readers of the order look each id up anew.
    if (old === undefined) this.idOrder.inserted(entry);
    return entry;
  }

  delete(entry: PointEntry): void {
    this.#writes++;
    for (const [name, owner] of entry.dense) this.dense.get(name)?.remove(owner.slot);
    this.#removeSparse(entry);
    this.conditions.removed(entry);
    this.#byKey.delete(entry.key);
    this.idOrder.removed();
  }

  /** Replaces a stored point's payload in place (set, overwrite, delete or clear payload). */
  setPayload(entry: PointEntry, payload: Payload): void {
    this.#writes++;
    this.conditions.removed(entry);
    entry.payload = payload;
    this.conditions.added(entry);
  }

  #removeSparse(entry: PointEntry): void {
    for (const [name, doc] of entry.sparse) this.sparse.get(name)?.remove(doc);
  }
}
