/**
 * @module The port to the vector store: only the Qdrant calls the memory service makes.
 * Implemented over Qdrant's REST API (store/qdrant), which serves a real Qdrant and the embedded store alike;
 * tests can stand in a fake.
 */
import type { Schemas } from '@qdrant/js-client-rest';

/** A point id as Qdrant returns it. */
export type StoredPointId = string | number;

/** Qdrant's filter JSON, as its client types it; built with store-filters.ts. */
export type StoreFilter = Schemas['Filter'];
/** One condition of a filter (a field match, is_empty, has_id, or a nested filter). */
export type StoreCondition = Schemas['Condition'];

/**
 * A dense vector to store: the model's Float32Array as it came (a store in this process takes its buffer
 * without a copy to a list of numbers), or a plain list.
 */
export type DenseVector = readonly number[] | Float32Array;

/** What the service needs to know about an existing collection before writing to it. */
export interface CollectionShape {
  /** Size of the single unnamed vector; undefined when the collection uses named vectors (or none). */
  readonly vectorSize: number | undefined;
  readonly distance: string | undefined;
  /** Names of named vectors, when the collection has them instead of one unnamed vector. */
  readonly namedVectors: readonly string[];
  /** Size of each named dense vector (empty for one unnamed vector). */
  readonly namedVectorSizes?: Readonly<Record<string, number>>;
  /** Names of sparse vectors, with their modifier ("idf" or "none"). */
  readonly sparseVectors?: Readonly<Record<string, string>>;
  /** Indexed payload fields with their index type ("integer", "float", "keyword", ...). */
  readonly payloadIndexes?: Readonly<Record<string, string>>;
  readonly pointsCount: number;
}

export interface StorePoint {
  readonly id: StoredPointId;
  readonly vector: DenseVector;
  readonly payload: Record<string, unknown>;
}

export interface ScoredStorePoint {
  readonly id: StoredPointId;
  readonly score: number;
  readonly payload: Record<string, unknown>;
}

export interface StoredRecord {
  readonly id: StoredPointId;
  readonly payload: Record<string, unknown>;
}

export interface SearchOptions {
  readonly vector: readonly number[];
  readonly limit: number;
  readonly scoreThreshold?: number;
  readonly filter?: StoreFilter;
  /** The query's text, for collections that also rank lexically (st-qdrant-memory's hybrid fork layout). */
  readonly queryText?: string;
}

export interface ScrollOptions {
  readonly filter?: StoreFilter;
  readonly limit: number;
  readonly offset?: StoredPointId;
  /** Only these payload keys of each point (default: the whole payload). */
  readonly withPayload?: readonly string[];
}

export interface PointStore {
  /** Cheap reachability check for /ready; throws StoreError. */
  probe(): Promise<void>;
  listCollections(): Promise<string[]>;
  /** undefined when the collection does not exist. */
  describeCollection(name: string): Promise<CollectionShape | undefined>;
  /** Creates a collection with one unnamed Cosine vector; an "already exists" answer counts as success. */
  createCollection(name: string, vectorSize: number): Promise<void>;
  /** Upserts and waits until the points are stored. */
  upsertPoints(collection: string, points: readonly StorePoint[]): Promise<void>;
  searchPoints(collection: string, options: SearchOptions): Promise<ScoredStorePoint[]>;
  scrollPoints(
    collection: string,
    options: ScrollOptions,
  ): Promise<{ points: StoredRecord[]; nextOffset: StoredPointId | undefined }>;
  /** 0 when the collection does not exist. */
  countPoints(collection: string, filter?: StoreFilter): Promise<number>;
  /** Waits until deleted; a missing collection or missing ids are not errors. */
  deletePoints(
    collection: string,
    selector: { ids: readonly StoredPointId[] } | { filter: StoreFilter },
  ): Promise<void>;
}
