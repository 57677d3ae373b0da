/**
 * @module The store calls a hybrid shared collection needs beyond PointStore: points with several named
 * vectors, and the Query API's prefetch + fusion, both in the shapes st-qdrant-memory's hybrid fork sends.
 */
import type { QueryOptions, SparseVector } from '../hybrid-point-store.js';
import type { DenseVector, ScoredStorePoint, StoredPointId, StoreFilter } from '../point-store.js';

/** A point whose vectors are named: dense lists and sparse vectors side by side. */
export interface NamedVectorsPoint {
  readonly id: StoredPointId;
  readonly vectors: Readonly<Record<string, DenseVector | SparseVector>>;
  readonly payload: Record<string, unknown>;
}

/** One prefetch of a fused query: nearest points of one named vector, as a single query names them. */
export type FusionPrefetch = Pick<QueryOptions, 'query' | 'using' | 'limit' | 'scoreThreshold'>;

/** `POST /points/query` with prefetches fused by reciprocal rank (`query: {fusion: "rrf"}`). */
export interface FusedQuery {
  readonly prefetch: readonly FusionPrefetch[];
  readonly limit: number;
  /** On the outer request, as the fork sends it; the store applies it to every prefetch. */
  readonly filter?: StoreFilter;
}

export interface StHybridStore {
  /** Upserts points with named vectors and waits until they are stored. */
  upsertNamedVectors(collection: string, points: readonly NamedVectorsPoint[]): Promise<void>;
  /** Reciprocal-rank fusion of the prefetches; scores are the store's RRF scores. */
  queryFused(collection: string, query: FusedQuery): Promise<ScoredStorePoint[]>;
}
