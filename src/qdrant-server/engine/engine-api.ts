/**
 * @module The seam between the embedded store's engine and its HTTP layer.
 * Requests arrive here already parsed and shape-validated (ids normalized, filters parsed);
 * the engine owns the semantic checks that need collection state (dimensions, missing points).
 * Writes are synchronous: better-sqlite3 is, and a single thread makes every write atomic. Reads that can walk
 * the whole collection are asynchronous and run in time slices (time-slicer.ts); writes may land between slices.
 * Past 300 lines: it is the one list of the seam's types, kept whole so the port reads in one place.
 */
import type { Filter } from '../filter/filter-ast.js';
import type { Payload, PayloadSelector } from '../filter/filter-api.js';
import type { PointId } from './point-id.js';

export type Distance = 'Cosine' | 'Dot' | 'Euclid' | 'Manhattan';

/** The single unnamed vector of a collection, plus any extra keys the client sent (echoed back in info). */
export interface VectorParams {
  readonly size: number;
  readonly distance: Distance;
  readonly extras: Readonly<Record<string, unknown>>;
}

/** A sparse vector's config (`sparse_vectors.NAME`); `idf` rescales query weights by document frequency. */
export interface SparseVectorParams {
  readonly modifier?: 'none' | 'idf';
  /** `index` params, kept only to echo them in collection info (the embedded index has no knobs). */
  readonly index?: Readonly<Record<string, unknown>>;
}

/** `PUT /collections/{name}` after parsing. */
export interface CollectionSpec {
  /** The single unnamed vector (`vectors: {size, distance}`), or null when there is none. */
  readonly vectors: VectorParams | null;
  /**
   * Named dense vectors (`vectors: {NAME: {size, distance}}`). Absent in data dirs written before named
   * vectors existed; a collection has either the unnamed vector or named ones, never both.
   */
  readonly namedVectors?: Readonly<Record<string, VectorParams>>;
  /** Sparse vectors by name (`sparse_vectors`); absent in older data dirs. */
  readonly sparseVectors?: Readonly<Record<string, SparseVectorParams>>;
  /** Other top-level keys (hnsw_config, optimizers_config, on_disk_payload, …), kept and echoed. */
  readonly settings: Readonly<Record<string, unknown>>;
}

/** A sparse vector as sent: parallel lists of dimension indices (u32) and weights. */
export interface SparseVectorInput {
  readonly indices: readonly number[];
  readonly values: readonly number[];
}

/**
 * A dense vector as sent: a JSON array, or a Float32Array from a caller in this process (posted-upsert.ts),
 * whose components are f32 already. The engine copies it when it prepares it, so a view into a larger buffer is fine.
 */
export type DenseVectorInput = readonly number[] | Float32Array;

/** A dense or sparse vector. */
export type VectorInput = DenseVectorInput | SparseVectorInput;

/** A point's vectors by name, as in Qdrant's `vector: {NAME: ...}`; `""` is the unnamed dense vector. */
export type NamedVectorsInput = Readonly<Record<string, VectorInput>>;

export interface PointInput {
  readonly id: PointId;
  /** A plain array (or Float32Array) is the unnamed vector; an object names its vectors (`{}` or null: no vector). */
  readonly vector: DenseVectorInput | NamedVectorsInput | null;
  readonly payload: Payload;
}

/** `PUT /points/vectors`: the vectors to set on an existing point; its other vectors and payload stay. */
export interface PointVectorsInput {
  readonly id: PointId;
  readonly vector: DenseVectorInput | NamedVectorsInput;
}

export interface ReadOptions {
  readonly withPayload: PayloadSelector;
  /** true / false, or the names of the vectors to return. */
  readonly withVector: boolean | readonly string[];
}

/** A stored sparse vector as returned: indices ascending, f32 values. */
export interface SparseVectorOutput {
  indices: number[];
  values: number[];
}

/** A point as returned: `payload` / `vector` are absent when not requested. */
export interface PointRecord {
  id: PointId;
  payload?: Payload;
  /**
   * f32 values (already rounded with Math.fround); the HTTP layer serializes them shortest-round-trip.
   * A plain array when the only vector returned is the unnamed one, else a map by name (as Qdrant does).
   */
  vector?: number[] | Record<string, number[] | SparseVectorOutput>;
}

export interface ScoredPointRecord extends PointRecord {
  score: number;
  version: number;
  /** The `order_by` key's value, for an order_by query. */
  order_value?: number;
}

/** Qdrant's REST `params` of a search, query or prefetch (`SearchParams` in lib/segment types.rs). */
export interface SearchParams {
  /** Search without approximation. */
  readonly exact?: boolean;
  /** The graph search's beam width; the collection's `ef_construct` when absent. */
  readonly hnswEf?: number;
}

/**
 * `params.idf`: where a sparse `idf` query takes its statistics. No corpus: the whole collection (`"global"`);
 * a corpus: only the points matching that filter, whatever the query's own filter (Qdrant 1.19).
 */
export interface IdfParams {
  readonly corpus?: Filter;
}

export interface SearchRequest extends ReadOptions {
  readonly vector: VectorInput;
  /** The vector name searched; `""` (the unnamed vector) when absent. */
  readonly using?: string;
  readonly filter?: Filter;
  readonly limit: number;
  readonly offset: number;
  readonly scoreThreshold?: number;
  /** `params`: exact or approximate search, and the graph's beam (graph-search.ts). */
  readonly params?: SearchParams;
  readonly idf?: IdfParams;
}

/**
 * `nearest.mmr`: re-rank the nearest `candidatesLimit` (default: the request's limit) by Maximal Marginal
 * Relevance. `diversity` 0 is pure relevance, 1 pure diversity (Qdrant's lambda is 1 - diversity).
 */
export interface MmrParams {
  readonly diversity?: number;
  readonly candidatesLimit?: number;
}

/** The `query` of a query request or prefetch. */
export type QueryInput =
  | { readonly kind: 'nearest'; readonly vector: VectorInput; readonly mmr?: MmrParams }
  | { readonly kind: 'point'; readonly id: PointId; readonly mmr?: MmrParams }
  | { readonly kind: 'rrf'; readonly k: number; readonly weights?: readonly number[] }
  | { readonly kind: 'dbsf' }
  | { readonly kind: 'order_by'; readonly orderBy: OrderBy }
  | { readonly kind: 'sample' };

export interface PrefetchRequest {
  readonly query?: QueryInput;
  readonly idf?: IdfParams;
  /** The vector name this level's query searches; `""` when absent. */
  readonly using?: string;
  readonly prefetch: readonly PrefetchRequest[];
  readonly filter?: Filter;
  readonly limit: number;
  readonly scoreThreshold?: number;
  readonly params?: SearchParams;
}

export interface QueryRequest extends ReadOptions {
  readonly query?: QueryInput;
  readonly idf?: IdfParams;
  readonly using?: string;
  readonly prefetch: readonly PrefetchRequest[];
  readonly filter?: Filter;
  readonly limit: number;
  readonly offset: number;
  readonly scoreThreshold?: number;
  readonly params?: SearchParams;
}

/** `POST /points/query/groups`: a query whose hits are grouped by a payload key. */
export interface QueryGroupsRequest extends Omit<QueryRequest, 'offset'> {
  /** The payload key (a JSON path) whose string or integer values name the groups. */
  readonly groupBy: string;
  /** Hits per group. */
  readonly groupSize: number;
}

/** One group of hits: its key value and its best hits, best first. */
export interface PointGroupRecord {
  id: string | number;
  hits: ScoredPointRecord[];
}

export interface OrderBy {
  readonly key: string;
  readonly direction: 'asc' | 'desc';
  readonly startFrom?: number | string;
}

export interface ScrollRequest extends ReadOptions {
  readonly filter?: Filter;
  readonly limit: number;
  readonly offset?: PointId;
  readonly orderBy?: OrderBy;
}

export interface ScrollPage {
  points: (PointRecord & { order_value?: number })[];
  nextPageOffset: PointId | null;
}

/** `PATCH /collections/{name}`: the parts of UpdateCollection the store keeps, each checked to be an object. */
export interface CollectionPatch {
  readonly vectors?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly sparse_vectors?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly params?: Readonly<Record<string, unknown>>;
  readonly hnsw_config?: Readonly<Record<string, unknown>>;
  readonly optimizers_config?: Readonly<Record<string, unknown>>;
  readonly quantization_config?: Readonly<Record<string, unknown>> | 'Disabled';
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/** `POST /facet`: count the values of a map-indexed key over the points passing the filter. */
export interface FacetRequest {
  readonly key: string;
  readonly limit: number;
  readonly filter?: Filter;
}

/** One value and how many points hold it. */
export interface FacetHit {
  value: string | number | boolean;
  count: number;
}

/** Which points a delete or payload operation touches. */
export type PointSelector = { readonly ids: readonly PointId[] } | { readonly filter: Filter };

export interface UpdateOutcome {
  readonly operationId: number;
  /** Explicitly named ids that do not exist (payload ops answer 404 for these when wait=true). */
  readonly missingIds: readonly PointId[];
}

/** A payload index schema: `keyword`, `integer`, `float`, `geo`, `text`, `bool`, `datetime` or `uuid`, with params. */
export interface PayloadFieldSchema {
  readonly type: 'keyword' | 'integer' | 'float' | 'geo' | 'text' | 'bool' | 'datetime' | 'uuid';
  /** Params as they appear in `payload_schema[field].params` (defaults filled in); absent for a plain type. */
  readonly params?: Readonly<Record<string, unknown>>;
}

export interface CollectionEngine {
  readonly name: string;
  /** `GET /collections/{name}` result, ready to serialize. */
  info(): Record<string, unknown>;
  /** The unnamed vector's params, or null for a collection without one. */
  vectorParams(): VectorParams | null;
  upsert(points: readonly PointInput[]): UpdateOutcome;
  retrieve(ids: readonly PointId[], options: ReadOptions): PointRecord[];
  /**
   * Reads that can rank the whole collection are asynchronous: they run in time slices that hand the event
   * loop back (time-slicer.ts), so one huge request never stalls the process it shares with the service.
   */
  search(request: SearchRequest): Promise<ScoredPointRecord[]>;
  query(request: QueryRequest): Promise<ScoredPointRecord[]>;
  /** Groups ordered by their best hit; each group's hits best first. */
  queryGroups(request: QueryGroupsRequest): Promise<PointGroupRecord[]>;
  /** Sliced too: a scroll can walk (and `order_by` sort) the whole collection. */
  scroll(request: ScrollRequest): Promise<ScrollPage>;
  count(filter?: Filter): number;
  /**
   * The dimensions among `indices` that some point passing `filter` has in its sparse vector `using` (not a
   * Qdrant route: for a caller in this process, e.g. which query words any memory holds).
   */
  heldSparseDimensions(using: string, indices: readonly number[], filter?: Filter): number[];
  /** Applies `PATCH /collections/{name}` (collection-patch.ts) and persists it. */
  updateConfig(patch: CollectionPatch): void;
  /** Value counts of a keyword/integer/uuid/bool-indexed key, by count then value; 400 without such an index. */
  facet(request: FacetRequest): FacetHit[];
  deletePoints(selector: PointSelector): UpdateOutcome;
  /** Sets the given vectors of existing points (merged per id); missing ids are reported, the rest applied. */
  updateVectors(points: readonly PointVectorsInput[]): UpdateOutcome;
  /** Drops the named vectors of the selected points; an unknown name is a 400 before anything changes. */
  deleteVectors(selector: PointSelector, names: readonly string[]): UpdateOutcome;
  /** Shallow merge (null removes a key); with `key`, merges into the object at that JSON path. */
  setPayload(selector: PointSelector, payload: Payload, key?: string): UpdateOutcome;
  overwritePayload(selector: PointSelector, payload: Payload): UpdateOutcome;
  deletePayloadKeys(selector: PointSelector, keys: readonly string[]): UpdateOutcome;
  clearPayload(selector: PointSelector): UpdateOutcome;
  createIndex(field: string, schema: PayloadFieldSchema): UpdateOutcome;
  deleteIndex(field: string): UpdateOutcome;
}

/** One action of `POST /collections/aliases`. */
export type AliasAction =
  | { readonly kind: 'create'; readonly alias: string; readonly collection: string }
  | { readonly kind: 'delete'; readonly alias: string }
  | { readonly kind: 'rename'; readonly from: string; readonly to: string };

/** An alias and the collection it names. */
export interface AliasDescription {
  readonly alias_name: string;
  readonly collection_name: string;
}

export interface StoreEngine {
  /** Names sorted in byte order (aliases are not listed). */
  listCollections(): string[];
  /** true for a collection or an alias of one. */
  exists(name: string): boolean;
  /** A collection by name or alias. Throws 404 ``Not found: Collection `NAME` doesn't exist!``. */
  collection(name: string): CollectionEngine;
  /** Throws 409 ``Wrong input: Collection `NAME` already exists!``, or 400 when an alias has that name. */
  createCollection(name: string, spec: CollectionSpec): void;
  /** true if it existed (by its own name, not an alias); its aliases go with it. */
  deleteCollection(name: string): boolean;
  /** Applies every action or, when one fails, none (throws that action's Qdrant error). */
  updateAliases(actions: readonly AliasAction[]): void;
  /** Every alias, by collection then alias name. */
  listAliases(): AliasDescription[];
  /** The aliases naming `collection` (its own name, not an alias); none for an unknown name. */
  collectionAliases(collection: string): AliasDescription[];
  close(): void;
}

export interface StoreEngineOptions {
  /** Folder for the SQLite file; created if missing. */
  readonly dataDir: string;
}
