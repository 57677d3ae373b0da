/**
 * @module One collection of the embedded store: writes go to SQLite first (one transaction per call, committed
 * before returning), then to the in-memory table that every read is served from. Past 300 lines because every
 * write shares the class's private table, vector config and commit; the work itself lives in the modules it calls.
 */

import type { Payload } from '../filter/filter-api.js';
import type { Filter } from '../filter/filter-ast.js';
import { copyJson, deletePayloadPaths, emptyJsonObject, mergePayload } from '../filter/index.js';
import { describeCollection } from './collection-info.js';
import { CollectionReader } from './collection-reader.js';
import type {
  CollectionEngine,
  CollectionPatch,
  CollectionSpec,
  FacetHit,
  FacetRequest,
  PayloadFieldSchema,
  PointGroupRecord,
  PointInput,
  PointRecord,
  PointSelector,
  PointVectorsInput,
  QueryGroupsRequest,
  QueryRequest,
  ReadOptions,
  ScoredPointRecord,
  ScrollPage,
  ScrollRequest,
  SearchRequest,
  UpdateOutcome,
  VectorParams,
} from './engine-api.js';
import { patchCollectionSpec } from './collection-patch.js';
import { countFacets } from './facet-counts.js';
import { encodeVector } from './f32.js';
import { filterCandidates } from './condition-sets.js';
import { readGraphOptions } from './graph-options.js';
import { restoreGraphs, type SavedGraphs, saveGraph } from './graph-persistence.js';
import { runQueryGroups } from './point-groups.js';
import { type PointId, pointIdFromKey, pointIdKey } from './point-id.js';
import { runQuery } from './point-query.js';
import { scrollPoints } from './point-scroll.js';
import { type PointEntry, PointTable, type PointVectors } from './point-table.js';
import type { SqlitePersistence, StoredPoint } from './sqlite-persistence.js';
import { scanStoredVectors, storedVectorSource } from './stored-vectors.js';
import { mapInSlices } from './time-slicer.js';
import { decodeNamedVectors, encodeNamedVectors } from './vector-codec.js';
import { isOnDisk, notExistingVector, VectorConfig } from './vector-config.js';
import { dropVectors, mergeVectors, readPointVectors } from './vector-edits.js';

/** The persisted state a collection starts from. */
export interface CollectionState {
  readonly name: string;
  readonly spec: CollectionSpec;
  readonly indexes: Readonly<Record<string, PayloadFieldSchema>>;
  readonly operations: number;
}

/** A collection backed by the store's SQLite file. */
export class EmbeddedCollection implements CollectionEngine {
  readonly name: string;
  #spec: CollectionSpec;
  readonly #vectors: VectorConfig;
  readonly #indexes: Map<string, PayloadFieldSchema>;
  readonly #table: PointTable;
  readonly #reader: CollectionReader;
  /** Operations applied so far; the next one gets this number (Qdrant's first operation_id is 0). */
  #operations: number;
  readonly #db: SqlitePersistence;

  constructor(state: CollectionState, db: SqlitePersistence) {
    this.#db = db;
    this.name = state.name;
    this.#spec = state.spec;
    this.#operations = state.operations;
    this.#indexes = new Map(Object.entries(state.indexes));
    this.#vectors = new VectorConfig(state.spec);
    const dims = new Map([...this.#vectors.dense].map(([name, params]) => [name, params.size]));
    this.#table = new PointTable(
      dims,
      this.#vectors.sparse.keys(),
      readGraphOptions(state.spec, this.#vectors),
    );
    this.#reader = new CollectionReader(this.#vectors, this.#table, this.#indexes);
    for (const [name, graph] of this.#table.graphs) {
      graph.onSaveDue = () => saveGraph(db, this.name, name, graph);
    }
    for (const [name, slots] of this.#table.dense) slots.source = storedVectorSource(db, this.name, name);
    // Before loading: vectors on disk are never held in RAM, not even while the store opens.
    this.#placeVectors();
  }

  /**
   * Keeps each dense vector's f32 values in RAM or on disk as its params say (`on_disk`); turning it off reads
   * them all back from SQLite once. The int8 codes and the graph stay in RAM either way.
   */
  #placeVectors(): void {
    for (const [name, slots] of this.#table.dense) {
      const params = this.#vectors.dense.get(name);
      const onDisk = params !== undefined && isOnDisk(params);
      if (onDisk && !slots.onDisk) slots.moveToDisk();
      else if (!onDisk && slots.onDisk) {
        slots.moveToMemory((put) =>
          scanStoredVectors(this.#db, this.name, name, (key, vector) => {
            const owner = this.#table.getByKey(key)?.dense.get(name);
            if (owner !== undefined) put(owner, vector);
          }),
        );
      }
    }
  }

  /** Bytes of RAM each dense vector's f32 values and int8 codes take (0 f32 bytes when on disk). */
  vectorMemory(): Map<string, { values: number; codes: number }> {
    return new Map([...this.#table.dense].map(([name, slots]) => [name, slots.memory()]));
  }

  /**
   * Loads the stored points while opening the store (no write back), with vector storage sized to fit, then
   * takes back the graphs saved with them (graph-persistence.ts) instead of rebuilding them.
   */
  loadPoints(count: number, rows: Iterable<StoredPoint>, graphs: SavedGraphs = new Map()): void {
    this.#table.reserve(count);
    for (const row of rows) this.#loadPoint(row);
    this.#table.trim();
    restoreGraphs(this.name, this.#table, graphs, this.#db.graphDir);
    // Numeric indexes answer range filters (a recall's window) from sorted values, sorted before serving.
    for (const [field, schema] of this.#indexes) {
      if (schema.type === 'float' || schema.type === 'integer') {
        this.#table.conditions.ranges.prepare(field, this.#table.values(), this.#table.size);
      }
    }
  }

  /** Adds a stored point while opening the store (no write back). */
  #loadPoint(row: StoredPoint): void {
    const named = row.vectors === null ? undefined : decodeNamedVectors(row.vectors);
    const dense = named?.dense ?? new Map<string, Float32Array>();
    if (row.vector !== null) {
      // SQLite buffers need not be 4-byte aligned; copy when they are not.
      const bytes = row.vector.byteOffset % 4 === 0 ? row.vector : Buffer.from(row.vector);
      dense.set('', new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4));
    }
    const vectors: PointVectors = { dense, sparse: named?.sparse ?? new Map() };
    // Re-made without prototypes, like every payload the engine holds (see copyJson).
    this.#table.put(
      pointIdFromKey(row.key),
      vectors,
      copyJson(JSON.parse(row.payload) as Payload),
      row.version,
    );
  }

  info(): Record<string, unknown> {
    return describeCollection(this.#spec, this.#vectors, this.#indexes, this.#table);
  }

  vectorParams(): VectorParams | null {
    return this.#spec.vectors;
  }

  upsert(points: readonly PointInput[]): UpdateOutcome {
    const latest = new Map<string, { id: PointId; vectors: PointVectors; payload: Payload }>();
    for (const point of points) {
      const vectors = this.#vectors.preparePoint(point.vector);
      // Last duplicate wins, as in Qdrant's HashMap of points.
      latest.set(pointIdKey(point.id), { id: point.id, vectors, payload: copyJson(point.payload) });
    }
    const op = this.#commit((version) => {
      for (const [key, point] of latest) {
        const unnamed = point.vectors.dense.get('');
        const blob = unnamed === undefined ? null : encodeVector(unnamed);
        this.#db.putPoint(this.name, key, blob, encodeNamedVectors(point.vectors), point.payload, version);
      }
    });
    for (const point of latest.values()) this.#table.put(point.id, point.vectors, point.payload, op);
    return { operationId: op, missingIds: [] };
  }

  retrieve(ids: readonly PointId[], options: ReadOptions): PointRecord[] {
    this.#checkVectorNames(options);
    const seen = new Set<string>();
    const records: PointRecord[] = [];
    for (const id of ids) {
      const entry = this.#table.get(id);
      if (entry === undefined || seen.has(entry.key)) continue;
      seen.add(entry.key);
      records.push(this.#reader.record(entry, options));
    }
    return records;
  }

  async search(request: SearchRequest): Promise<ScoredPointRecord[]> {
    this.#checkVectorNames(request);
    const query = this.#reader.prepareQuery(request.using ?? '', request.vector, request.idf);
    const test = this.#reader.predicate(request.filter);
    // An offset past every point skips them all: no need to rank the collection to say so.
    if (request.offset >= this.#table.size) return [];
    const hits = await this.#reader.nearest(
      query,
      request.offset + request.limit,
      test,
      request.scoreThreshold,
      request.params,
      request.filter,
    );
    return mapInSlices(hits.slice(request.offset), (hit) => this.#reader.scoredRecord(hit, request));
  }

  query(request: QueryRequest): Promise<ScoredPointRecord[]> {
    this.#checkVectorNames(request);
    return runQuery(this.#reader, request);
  }

  queryGroups(request: QueryGroupsRequest): Promise<PointGroupRecord[]> {
    this.#checkVectorNames(request);
    return runQueryGroups(this.#reader, request);
  }

  scroll(request: ScrollRequest): Promise<ScrollPage> {
    this.#checkVectorNames(request);
    return scrollPoints(this.#reader, request);
  }

  count(filter?: Filter): number {
    if (filter === undefined) return this.#table.size;
    const test = this.#reader.predicate(filter) as (entry: PointEntry) => boolean;
    let count = 0;
    // Hybrid recall counts the chunks without a `source` on every new query: the indexed set, not every chunk.
    for (const entry of filterCandidates(this.#table, this.#indexes, filter)) if (test(entry)) count++;
    return count;
  }

  heldSparseDimensions(using: string, indices: readonly number[], filter?: Filter): number[] {
    const index = this.#table.sparse.get(using);
    if (index === undefined) throw notExistingVector(using);
    const test = this.#reader.predicate(filter);
    return [...new Set(indices)].filter((dimension) => index.holds(dimension, test));
  }

  updateConfig(patch: CollectionPatch): void {
    const spec = patchCollectionSpec(this.#spec, patch);
    this.#db.transaction(() => this.#db.setSpec(this.name, spec));
    this.#spec = spec;
    this.#vectors.update(spec);
    this.#placeVectors();
  }

  facet(request: FacetRequest): FacetHit[] {
    return countFacets(this.#reader, request);
  }

  deletePoints(selector: PointSelector): UpdateOutcome {
    const { entries } = this.#select(selector);
    const op = this.#commit(() => {
      for (const entry of entries) this.#db.deletePoint(this.name, entry.key);
    });
    for (const entry of entries) this.#table.delete(entry);
    // Deleting a missing id is not an error in Qdrant.
    return { operationId: op, missingIds: [] };
  }

  updateVectors(points: readonly PointVectorsInput[]): UpdateOutcome {
    const updates = new Map<string, { entry: PointEntry; vectors: PointVectors }>();
    const missingIds: PointId[] = [];
    for (const point of points) {
      // Checked (names, dimensions) before anything is written.
      const prepared = this.#vectors.preparePoint(point.vector);
      const entry = this.#table.get(point.id);
      if (entry === undefined) {
        missingIds.push(point.id);
        continue;
      }
      // The same id twice in one request merges both, as Qdrant's map of updates does.
      const base = updates.get(entry.key)?.vectors ?? readPointVectors(this.#table, entry);
      updates.set(entry.key, { entry, vectors: mergeVectors(base, prepared) });
    }
    return { operationId: this.#rewriteVectors([...updates.values()]), missingIds };
  }

  deleteVectors(selector: PointSelector, names: readonly string[]): UpdateOutcome {
    for (const name of names) {
      if (!this.#vectors.dense.has(name) && !this.#vectors.sparse.has(name)) throw notExistingVector(name);
    }
    const { entries, missing } = this.#select(selector);
    const updates = entries.map((entry) => ({
      entry,
      vectors: dropVectors(readPointVectors(this.#table, entry), names),
    }));
    return { operationId: this.#rewriteVectors(updates), missingIds: missing };
  }

  setPayload(selector: PointSelector, payload: Payload, key?: string): UpdateOutcome {
    return this.#rewritePayloads(selector, (old) => mergePayload(old, payload, key));
  }

  overwritePayload(selector: PointSelector, payload: Payload): UpdateOutcome {
    return this.#rewritePayloads(selector, () => copyJson(payload));
  }

  deletePayloadKeys(selector: PointSelector, keys: readonly string[]): UpdateOutcome {
    return this.#rewritePayloads(selector, (old) => deletePayloadPaths(old, keys));
  }

  clearPayload(selector: PointSelector): UpdateOutcome {
    return this.#rewritePayloads(selector, emptyJsonObject);
  }

  createIndex(field: string, schema: PayloadFieldSchema): UpdateOutcome {
    return this.#rewriteIndexes(() => this.#indexes.set(field, schema));
  }

  deleteIndex(field: string): UpdateOutcome {
    return this.#rewriteIndexes(() => this.#indexes.delete(field));
  }

  /** Forgets the in-memory state (the store has already deleted the rows). */
  drop(): void {
    // The graph goes first: pruning it point by point would be wasted work.
    this.#table.close();
    for (const entry of [...this.#table.values()]) this.#table.delete(entry);
  }

  /** Saves the graphs that changed since their last save and stops background work (the store is closing). */
  close(): void {
    for (const [name, graph] of this.#table.graphs) saveGraph(this.#db, this.name, name, graph);
    this.#table.close();
  }

  #rewritePayloads(selector: PointSelector, rewrite: (old: Payload) => Payload): UpdateOutcome {
    const { entries, missing } = this.#select(selector);
    // Compute every new payload before writing, so a bad path fails the whole call and changes nothing.
    const updated = entries.map((entry) => ({ entry, payload: rewrite(entry.payload) }));
    const op = this.#commit((version) => {
      for (const { entry, payload } of updated) this.#db.setPayload(this.name, entry.key, payload, version);
    });
    for (const { entry, payload } of updated) {
      this.#table.setPayload(entry, payload);
      entry.version = op;
    }
    return { operationId: op, missingIds: missing };
  }

  #rewriteVectors(updates: readonly { entry: PointEntry; vectors: PointVectors }[]): number {
    const op = this.#commit((version) => {
      for (const { entry, vectors } of updates) {
        const unnamed = vectors.dense.get('');
        const blob = unnamed === undefined ? null : encodeVector(unnamed);
        this.#db.putPoint(this.name, entry.key, blob, encodeNamedVectors(vectors), entry.payload, version);
      }
    });
    for (const { entry, vectors } of updates) this.#table.put(entry.id, vectors, entry.payload, op);
    return op;
  }

  #rewriteIndexes(change: () => void): UpdateOutcome {
    const before = new Map(this.#indexes);
    change();
    try {
      const op = this.#commit(() => this.#db.setIndexes(this.name, Object.fromEntries(this.#indexes)));
      return { operationId: op, missingIds: [] };
    } catch (error) {
      this.#indexes.clear();
      for (const [field, schema] of before) this.#indexes.set(field, schema);
      throw error;
    }
  }

  /** A name in `with_vector` the collection lacks is a 400, as in Qdrant, not a silently missing vector. */
  #checkVectorNames(options: ReadOptions): void {
    if (typeof options.withVector === 'boolean') return;
    for (const name of options.withVector) {
      if (!this.#vectors.dense.has(name) && !this.#vectors.sparse.has(name)) throw notExistingVector(name);
    }
  }

  /** The existing points a selector names, plus the explicitly named ids that do not exist. */
  #select(selector: PointSelector): { entries: PointEntry[]; missing: PointId[] } {
    if ('filter' in selector) return { entries: this.#reader.matching(selector.filter), missing: [] };
    const entries = new Map<string, PointEntry>();
    const missing: PointId[] = [];
    for (const id of selector.ids) {
      const entry = this.#table.get(id);
      if (entry === undefined) missing.push(id);
      else entries.set(entry.key, entry);
    }
    return { entries: [...entries.values()], missing };
  }

  /** Writes one operation in a transaction, bumping the persisted operation counter with it. */
  #commit(write: (operation: number) => void): number {
    const operation = this.#operations;
    this.#db.transaction(() => {
      write(operation);
      this.#db.setOperations(this.name, operation + 1);
    });
    this.#operations = operation + 1;
    return operation;
  }
}
