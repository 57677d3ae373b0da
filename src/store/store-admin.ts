/**
 * @module The port for the data tools (export, restore, reembed, doctor): whole collections with their
 * vectors, layouts, payload indexes and aliases. Apart from PointStore, because the service never needs it.
 */
import type { StoredPointId } from './point-store.js';

/** A sparse vector as Qdrant returns it. */
export interface StoredSparseVector {
  readonly indices: readonly number[];
  readonly values: readonly number[];
}

/** One unnamed dense vector, or named dense and sparse vectors. */
export type StoredVector =
  | readonly number[]
  | Readonly<Record<string, readonly number[] | StoredSparseVector>>;

/** A point with everything the store keeps of it. */
export interface FullStorePoint {
  readonly id: StoredPointId;
  readonly vector: StoredVector;
  readonly payload: Record<string, unknown>;
}

/**
 * A collection's vector layout exactly as Qdrant states it (`config.params.vectors` and
 * `config.params.sparse_vectors`), so a restore recreates the same layout.
 */
export interface CollectionLayout {
  readonly vectors: unknown;
  readonly sparseVectors?: unknown;
}

/** What the doctor and the data tools read about a collection. */
export interface CollectionDetails {
  readonly layout: CollectionLayout;
  /** Payload indexes by field: the schema type Qdrant reports (`keyword`, `text`, ...). */
  readonly payloadIndexes: Readonly<Record<string, string>>;
  readonly pointsCount: number;
}

export interface StoreAlias {
  readonly alias: string;
  readonly collection: string;
}

export interface StoreAdmin {
  /** The store's reported version (Qdrant's `GET /`). */
  readVersion(): Promise<string>;
  /** undefined when the collection does not exist (an alias resolves to its collection). */
  readCollection(name: string): Promise<CollectionDetails | undefined>;
  /** Creates a collection with this layout; "already exists" is an error here (restores need an empty one). */
  createCollectionWithLayout(name: string, layout: CollectionLayout): Promise<void>;
  /** One page of points with vectors and payloads, in id order. */
  scrollFullPoints(
    collection: string,
    page: { readonly limit: number; readonly offset?: StoredPointId },
  ): Promise<{ points: FullStorePoint[]; nextOffset: StoredPointId | undefined }>;
  /** Upserts points with any vector layout and waits until stored. */
  upsertFullPoints(collection: string, points: readonly FullStorePoint[]): Promise<void>;
  /** Deletes a collection; a missing one is not an error. */
  deleteCollection(name: string): Promise<void>;
  listAliases(): Promise<StoreAlias[]>;
  /** Points `alias` at `collection` in one step (deleting the alias first if it exists). */
  setAlias(alias: string, collection: string): Promise<void>;
}
