/** @module Read-side building blocks shared by search, query and scroll: filters, query vectors, exact nearest points, records. */
import type { Filter } from '../filter/filter-ast.js';
import type { IndexLookup, PointPredicate, TextIndexParams } from '../filter/filter-api.js';
import { compileFilter, selectPayload, setOwn } from '../filter/index.js';
import { badInput } from '../qdrant-error.js';
import type {
  IdfParams,
  PayloadFieldSchema,
  PointRecord,
  ReadOptions,
  ScoredPointRecord,
  SearchParams,
  SparseVectorOutput,
  VectorInput,
  VectorParams,
} from './engine-api.js';
import {
  type DenseSlot,
  type PointEntry,
  type PointTable,
  type SparseVectorData,
  compareEntries,
} from './point-table.js';
import { checkIdfApplies, weightQueryOverCorpus } from './idf-corpus.js';
import { scoreSparse, weightQuery } from './sparse-search.js';
import { searchSparse } from './sparse-top.js';
import { type VectorConfig, isSparseInput, prepareSparse } from './vector-config.js';
import { type Scored, TopK, isSimilarity, passesThreshold, scorerFor } from './vector-scoring.js';
import { mapInSlices, pauseIfDue } from './time-slicer.js';
import { searchGraph } from './graph-search.js';
import { type NearestRequest, searchAmong, searchNearest } from './vector-search.js';
import { fewCandidateSlots } from './condition-sets.js';

/** A scored point, best first in any list of them. */
export type Hit = Scored<PointEntry>;

/** A query vector ready to score against one vector name: dense prepared like stored ones, sparse sorted and weighted. */
export type PreparedQuery =
  | { readonly kind: 'dense'; readonly name: string; readonly vector: Float32Array }
  | { readonly kind: 'sparse'; readonly name: string; readonly vector: SparseVectorData };

const byPoint = (a: DenseSlot, b: DenseSlot) => compareEntries(a.point, b.point);

/** Reads one collection's in-memory state. */
export class CollectionReader {
  readonly indexLookup: IndexLookup;

  constructor(
    readonly vectors: VectorConfig,
    readonly table: PointTable,
    readonly indexes: ReadonlyMap<string, PayloadFieldSchema>,
  ) {
    this.indexLookup = { textIndex: (key) => this.#textIndex(key) };
  }

  /** The predicate for a filter, or undefined when there is none (everything matches). */
  predicate(filter: Filter | undefined): PointPredicate | undefined {
    return filter === undefined ? undefined : compileFilter(filter, this.indexLookup);
  }

  /** Every point matching the filter, in no particular order. */
  matching(filter: Filter | undefined): PointEntry[] {
    const test = this.predicate(filter);
    const all = [...this.table.values()];
    return test === undefined ? all : all.filter(test);
  }

  /** Checks a query vector against the vector `name` and prepares it the way stored vectors were prepared. */
  prepareQuery(name: string, vector: VectorInput, idf?: IdfParams): PreparedQuery {
    if (isSparseInput(vector)) return this.#prepareSparseQuery(name, prepareSparse(vector), idf);
    checkIdfApplies(this.vectors, name, idf);
    return { kind: 'dense', name, vector: this.vectors.prepareDenseQuery(name, vector) };
  }

  /** A point's stored vector `name` as a query (query by id); undefined when the point has none. */
  storedQuery(entry: PointEntry, name: string, idf?: IdfParams): PreparedQuery | undefined {
    if (this.vectors.sparse.has(name)) {
      const doc = entry.sparse.get(name);
      return doc === undefined ? undefined : this.#prepareSparseQuery(name, doc, idf);
    }
    checkIdfApplies(this.vectors, name, idf);
    this.vectors.denseParams(name);
    const vector = this.#storedDense(entry, name);
    return vector === undefined ? undefined : { kind: 'dense', name, vector };
  }

  /**
   * The `limit` nearest points that have the queried vector and pass `test`, ties by id ascending, cut by the
   * strict score_threshold: exact, or through the approximate index past its threshold (graph-search.ts).
   */
  async nearest(
    query: PreparedQuery,
    limit: number,
    test: ((entry: PointEntry) => boolean) | undefined,
    threshold?: number,
    params?: SearchParams,
    /** The filter `test` was compiled from: its indexed conditions may name the few points that can pass. */
    filter?: Filter,
  ): Promise<Hit[]> {
    if (query.kind === 'sparse') {
      const index = this.table.sparse.get(query.name);
      return index === undefined ? [] : searchSparse(index, query.vector, limit, test, threshold);
    }
    // The dense passes are native calls of up to ~25 ms at 100k x 1536 that cannot yield: several searches
    // arriving in one turn would otherwise run back to back in it. Each waits for a slice of its own first.
    await pauseIfDue();
    const slots = this.table.dense.get(query.name);
    if (slots === undefined) return [];
    const distance = this.#distanceOf(query.name);
    const request: NearestRequest<DenseSlot> = {
      slots,
      distance,
      query: query.vector,
      k: limit,
      ...(test === undefined ? {} : { accept: (owner: DenseSlot) => test(owner.point) }),
      tieBreak: byPoint,
    };
    const graph = this.table.graphs.get(query.name);
    const allowed =
      test === undefined ? undefined : fewCandidateSlots(this.table, this.indexes, query.name, filter, test);
    const found =
      (allowed === undefined ? undefined : await searchAmong(request, allowed)) ??
      (graph === undefined || limit <= 0 ? undefined : searchGraph(request, graph, params)) ??
      (await searchNearest(request));
    // Sliced: a huge limit returns every point.
    const hits = await mapInSlices(found, (hit) => ({ item: hit.item.point, score: hit.score }));
    return takeWhilePassing(hits, distance, threshold);
  }

  /** Exactly scores the given points (those with the queried vector), best first, cut by the strict threshold. */
  rescore(query: PreparedQuery, entries: readonly PointEntry[], limit: number, threshold?: number): Hit[] {
    if (query.kind === 'sparse') {
      const top = new TopK<PointEntry>(limit, true, compareEntries);
      for (const entry of entries) {
        const doc = entry.sparse.get(query.name);
        const score = doc === undefined ? undefined : scoreSparse(query.vector, doc);
        if (score !== undefined && (threshold === undefined || score > threshold)) top.offer(entry, score);
      }
      return top.items;
    }
    const slots = this.table.dense.get(query.name);
    if (slots === undefined) return [];
    const distance = this.#distanceOf(query.name);
    const score = scorerFor(distance);
    const top = new TopK<PointEntry>(limit, isSimilarity(distance), compareEntries);
    const owners: DenseSlot[] = [];
    for (const entry of entries) {
      const owner = entry.dense.get(query.name);
      // A point rewritten or deleted since it was found has freed its slot: it is left out, not misread.
      if (owner !== undefined && this.table.getByKey(entry.key) === entry) owners.push(owner);
    }
    // One read of them all (on disk, from SQLite).
    const { data, offsets } = slots.rowsOf(owners);
    owners.forEach((owner, i) => {
      const offset = offsets[i] as number;
      if (offset >= 0) top.offer(owner.point, score(data, offset, query.vector));
    });
    return takeWhilePassing(top.items, distance, threshold);
  }

  /**
   * A scored point as returned. Built in place: object spread of a fresh record per hit cost ~6 µs each, most
   * of a `limit: 1e9` search over 100k points.
   */
  scoredRecord(
    hit: Hit,
    options: ReadOptions,
    score = hit.score,
    version = hit.item.version,
  ): ScoredPointRecord {
    const record = this.record(hit.item, options) as ScoredPointRecord;
    record.score = score;
    record.version = version;
    return record;
  }

  /** Whether larger scores are better for queries on this vector (sparse vectors score like Dot). */
  higherIsBetter(name: string): boolean {
    return this.vectors.sparse.has(name) || isSimilarity(this.#distanceOf(name));
  }

  /** A point as returned to clients, with payload and vectors only when asked for. */
  record(entry: PointEntry, options: ReadOptions): PointRecord {
    const record: PointRecord = { id: entry.id };
    const payload = selectPayload(entry.payload, options.withPayload);
    if (payload !== undefined) record.payload = payload;
    // Asked for, `vector` is always there: `{}` for a point holding none of them, as Qdrant answers.
    if (options.withVector !== false) {
      record.vector = this.#recordVectors(
        entry,
        options.withVector === true ? undefined : options.withVector,
      );
    }
    return record;
  }

  /** The point's vectors (all, or the named ones): a bare array when that is only the unnamed vector. */
  #recordVectors(
    entry: PointEntry,
    names: readonly string[] | undefined,
  ): NonNullable<PointRecord['vector']> {
    const out: Record<string, number[] | SparseVectorOutput> = {};
    let count = 0;
    for (const name of entry.dense.keys()) {
      if (names !== undefined && !names.includes(name)) continue;
      const vector = this.#storedDense(entry, name);
      if (vector === undefined) continue;
      setOwn(out, name, Array.from(vector));
      count++;
    }
    for (const [name, doc] of entry.sparse) {
      if (names !== undefined && !names.includes(name)) continue;
      setOwn(out, name, { indices: Array.from(doc.indices), values: Array.from(doc.values) });
      count++;
    }
    const only = out[''];
    return count === 1 && Array.isArray(only) ? only : out;
  }

  /** A copy of a stored dense vector (views are unsafe to hand to usearch and to callers). */
  #storedDense(entry: PointEntry, name: string): Float32Array | undefined {
    const owner = entry.dense.get(name);
    const slots = this.table.dense.get(name);
    // slot -1: rewritten or deleted while a sliced read that still holds this point was under way.
    if (owner === undefined || slots === undefined || owner.slot < 0) return undefined;
    return slots.copy(owner.slot);
  }

  #prepareSparseQuery(name: string, vector: SparseVectorData, idf?: IdfParams): PreparedQuery {
    const params = this.vectors.sparseParams(name);
    const index = this.table.sparse.get(name);
    if (index === undefined) throw badInput(`Not existing vector name error: ${name}`);
    checkIdfApplies(this.vectors, name, idf);
    if (idf?.corpus !== undefined) {
      const inCorpus = this.predicate(idf.corpus) ?? (() => true);
      return { kind: 'sparse', name, vector: weightQueryOverCorpus(vector, name, this.table, inCorpus) };
    }
    return { kind: 'sparse', name, vector: weightQuery(vector, params, index) };
  }

  #distanceOf(name: string): VectorParams['distance'] {
    return this.vectors.denseParams(name).distance;
  }

  #textIndex(key: string): TextIndexParams | undefined {
    const schema = this.indexes.get(key);
    if (schema?.type !== 'text') return undefined;
    const params = schema.params ?? {};
    const text: { -readonly [K in keyof TextIndexParams]: TextIndexParams[K] } = {
      tokenizer: (params.tokenizer as TextIndexParams['tokenizer'] | undefined) ?? 'word',
      lowercase: (params.lowercase as boolean | undefined) ?? true,
    };
    if (typeof params.min_token_len === 'number') text.min_token_len = params.min_token_len;
    if (typeof params.max_token_len === 'number') text.max_token_len = params.max_token_len;
    // Only `custom` lists reach here: language lists are refused when the index is created.
    const custom = (params.stopwords as { custom?: unknown } | undefined)?.custom;
    if (Array.isArray(custom)) {
      text.stopwords = new Set(custom.map((word: string) => (text.lowercase ? word.toLowerCase() : word)));
    }
    return text;
  }
}

/** Sorted hits stop at the first that fails the threshold, as Qdrant's `take_while` does. */
function takeWhilePassing(
  hits: Hit[],
  distance: VectorParams['distance'],
  threshold: number | undefined,
): Hit[] {
  if (threshold === undefined) return hits;
  const end = hits.findIndex((hit) => !passesThreshold(distance, hit.score, threshold));
  return end < 0 ? hits : hits.slice(0, end);
}
