/** @module Read-side building blocks shared by search, query and scroll: filters, query vectors, exact nearest points, records. */
import type { Filter } from '../filter/filter-ast.js';
import type { IndexLookup, PointPredicate, TextIndexParams } from '../filter/filter-api.js';
import { compileFilter, selectPayload } from '../filter/index.js';
import { badInput } from '../qdrant-error.js';
import type {
  CollectionSpec,
  PayloadFieldSchema,
  PointRecord,
  ReadOptions,
  ScoredPointRecord,
  VectorParams,
} from './engine-api.js';
import { prepareVector } from './f32.js';
import { type PointEntry, type PointTable, compareEntries } from './point-table.js';
import { type Scored, TopK, isSimilarity, passesThreshold, scorerFor } from './vector-scoring.js';
import { searchNearest } from './vector-search.js';

/** A scored point, best first in any list of them. */
export type Hit = Scored<PointEntry>;

/** Reads one collection's in-memory state. */
export class CollectionReader {
  readonly indexLookup: IndexLookup;

  constructor(
    readonly spec: CollectionSpec,
    readonly table: PointTable,
    readonly indexes: ReadonlyMap<string, PayloadFieldSchema>,
  ) {
    this.indexLookup = { textIndex: (key) => this.textIndex(key) };
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

  /** The collection's vector params; throws Qdrant's error for a collection without a dense vector. */
  vectorParams(): VectorParams {
    if (this.spec.vectors === null) throw badInput('Not existing vector name error: ');
    return this.spec.vectors;
  }

  /** Checks the dimension and prepares a query vector the way stored vectors were prepared. */
  prepareQuery(vector: readonly number[]): Float32Array {
    const params = this.vectorParams();
    if (vector.length !== params.size) {
      throw badInput(`Vector dimension error: expected dim: ${params.size}, got ${vector.length}`);
    }
    return prepareVector(vector, params.distance);
  }

  /**
   * The `limit` nearest points that have a vector and pass `test`, exact, ties by id ascending,
   * cut by the strict score_threshold.
   */
  nearest(
    query: Float32Array,
    limit: number,
    test: ((entry: PointEntry) => boolean) | undefined,
    threshold?: number,
  ): Hit[] {
    const slots = this.table.slots;
    if (slots === null) return [];
    const distance = this.vectorParams().distance;
    let allowed: Int32Array | undefined;
    if (test !== undefined) {
      const picked: number[] = [];
      for (let slot = 0; slot < slots.count; slot++) if (test(slots.owner(slot))) picked.push(slot);
      allowed = Int32Array.from(picked);
    }
    const hits = searchNearest({ slots, distance, query, k: limit, allowed, tieBreak: compareEntries });
    return takeWhilePassing(hits, distance, threshold);
  }

  /** Exactly scores the given points (those with a vector), best first, cut by the strict threshold. */
  rescore(query: Float32Array, entries: readonly PointEntry[], limit: number, threshold?: number): Hit[] {
    const slots = this.table.slots;
    if (slots === null) return [];
    const distance = this.vectorParams().distance;
    const score = scorerFor(distance);
    const top = new TopK<PointEntry>(limit, isSimilarity(distance), compareEntries);
    for (const entry of entries) {
      if (entry.slot >= 0) top.offer(entry, score(slots.raw(), entry.slot * slots.dim, query));
    }
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

  /** The stored vector of a point, as a standalone array, or undefined when it has none. */
  storedVector(entry: PointEntry): Float32Array | undefined {
    return entry.slot >= 0 && this.table.slots !== null ? this.table.slots.copy(entry.slot) : undefined;
  }

  /** A point as returned to clients, with payload and vector only when asked for. */
  record(entry: PointEntry, options: ReadOptions): PointRecord {
    const record: PointRecord = { id: entry.id };
    const payload = selectPayload(entry.payload, options.withPayload);
    if (payload !== undefined) record.payload = payload;
    if (options.withVector) {
      const vector = this.storedVector(entry);
      if (vector !== undefined) record.vector = Array.from(vector);
    }
    return record;
  }

  private textIndex(key: string): TextIndexParams | undefined {
    const schema = this.indexes.get(key);
    if (schema?.type !== 'text') return undefined;
    const params = schema.params ?? {};
    const text: { -readonly [K in keyof TextIndexParams]: TextIndexParams[K] } = {
      tokenizer: (params.tokenizer as TextIndexParams['tokenizer'] | undefined) ?? 'word',
      lowercase: (params.lowercase as boolean | undefined) ?? true,
    };
    if (typeof params.min_token_len === 'number') text.min_token_len = params.min_token_len;
    if (typeof params.max_token_len === 'number') text.max_token_len = params.max_token_len;
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
