/**
 * @module The port to the store's hybrid side, for memory-pool's own parts index: named dense and sparse
 * vectors and the Query API. Apart from PointStore, because the shared chunk collections never use it.
 */
import type {
  DenseVector,
  ScoredStorePoint,
  StoredPointId,
  StoredRecord,
  StoreFilter,
} from './point-store.js';

/** A sparse vector as Qdrant takes it: parallel lists of dimension indices (u32) and values. */
export interface SparseVector {
  readonly indices: readonly number[];
  readonly values: readonly number[];
}

/** The layout of memory-pool's own hybrid collections (the parts index): these vector names. */
export const DENSE_VECTOR = 'dense';
export const SPARSE_VECTOR = 'bm25';

/** A point of a hybrid collection: a named dense vector and a sparse lexical vector. */
export interface HybridStorePoint {
  readonly id: StoredPointId;
  readonly dense: DenseVector;
  readonly sparse: SparseVector;
  readonly payload: Record<string, unknown>;
}

/** One Query API search (`points/query`) of one named vector of a hybrid collection. */
export interface QueryOptions {
  readonly query: readonly number[] | SparseVector;
  readonly using: string;
  readonly limit: number;
  readonly scoreThreshold?: number;
  readonly filter?: StoreFilter;
  /** Payload fields to return (default: all). */
  readonly withPayload?: readonly string[];
}

/** The Query API and point reads by id, over memory-pool's own hybrid collections. */
export interface HybridPointStore {
  /**
   * Creates a hybrid collection: a Cosine dense vector `dense` and a sparse vector `bm25` whose document
   * frequencies the store keeps (`modifier: "idf"`). "Already exists" counts as success.
   */
  createHybridCollection(name: string, denseSize: number): Promise<void>;
  /** Deletes a collection of memory-pool's own (the parts of a collection that is gone); a missing one is not an error. */
  deleteCollection(name: string): Promise<void>;
  /** Upserts into a hybrid collection and waits until the points are stored. */
  upsertHybridPoints(collection: string, points: readonly HybridStorePoint[]): Promise<void>;
  /** The Query API's nearest search over one named vector; scores are the store's (cosine, or BM25 with idf). */
  queryPoints(collection: string, options: QueryOptions): Promise<ScoredStorePoint[]>;
  /** Points by id with their payloads, in no particular order; missing ids are left out. */
  retrievePoints(collection: string, ids: readonly StoredPointId[]): Promise<StoredRecord[]>;
  /**
   * The cosine of `vector` with the `dense` vector of each of a hybrid collection's points by id (a lookup, no
   * search), computed over the stored f32 values; missing ids are left out. Keys are the ids as strings.
   */
  scoreDenseVectors(
    collection: string,
    vector: Float32Array | readonly number[],
    ids: readonly StoredPointId[],
  ): Promise<Map<string, number>>;
  /**
   * The dimensions among `indices` that the `bm25` vector of some point within `filter` has (which query words any
   * memory holds): one pass over the embedded store's index, one search per dimension on a Qdrant over REST.
   */
  findHeldSparseTerms(
    collection: string,
    indices: readonly number[],
    filter: StoreFilter | undefined,
  ): Promise<Set<number>>;
}
