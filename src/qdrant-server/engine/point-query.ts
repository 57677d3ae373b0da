/**
 * @module `POST /points/query`: nearest (dense or sparse, by vector or point id), order_by, random sample, nested
 * prefetches and RRF/DBSF fusion (qdrant-subset.md §3, qdrant-hybrid.md §3). Each stage returns hits best first;
 * the root applies offset and limit.
 */
import type { Filter } from '../filter/filter-ast.js';
import { badRequest, notFound } from '../qdrant-error.js';
import type { PrefetchRequest, QueryInput, QueryRequest, ScoredPointRecord } from './engine-api.js';
import type { CollectionReader, Hit, PreparedQuery } from './collection-reader.js';
import { rerankByMmr } from './mmr-rerank.js';
import { checkRangeIndex, listById, orderByField } from './point-scroll.js';
import { type PointEntry, compareEntries } from './point-table.js';
import { fuseDistributions, fuseRanks } from './score-fusion.js';
import { filterInSlices, mapInSlices } from './time-slicer.js';

/**
 * A hit of any stage. `scrolled` hits come from a scroll-like stage (no query, order_by, sample): Qdrant gives
 * them score 1 and version 0 (`local_shard/scroll.rs::query_scroll_batch`).
 */
export interface QueryHit extends Hit {
  readonly scrolled?: boolean;
  readonly orderValue?: number;
}

const keyOf = (entry: PointEntry) => entry.key;

/**
 * The most query stages (the root and every prefetch, nested ones included) one query may have: each can rank
 * the whole collection, so the bound keeps one request's work proportional to the collection.
 */
export const MAX_QUERY_STAGES = 16;

/** Runs a query request and returns the scored records. */
export async function runQuery(
  reader: CollectionReader,
  request: QueryRequest,
): Promise<ScoredPointRecord[]> {
  const hits = await runRootStage(reader, request, request.offset + request.limit);
  return mapInSlices(hits.slice(request.offset), (hit) => toRecord(reader, hit, request));
}

/** The root level as a stage, with Qdrant's root-only checks; `limit` counts offset in. */
export async function runRootStage(
  reader: CollectionReader,
  request: Omit<QueryRequest, 'offset'>,
  limit: number,
): Promise<QueryHit[]> {
  const stages = countStages(request.prefetch) + 1;
  if (stages > MAX_QUERY_STAGES) {
    throw badRequest(
      `prefetch: a query may have at most ${MAX_QUERY_STAGES} stages (itself and every prefetch, nested ones included), this one has ${stages}; split it into several queries`,
    );
  }
  if (request.query === undefined && request.scoreThreshold !== undefined) {
    throw badRequest(
      "A query is needed to use the score_threshold. Can't have score_threshold without defining a query.",
    );
  }
  const stage: PrefetchRequest = {
    prefetch: request.prefetch,
    limit,
    ...(request.query === undefined ? {} : { query: request.query }),
    ...(request.using === undefined ? {} : { using: request.using }),
    ...(request.filter === undefined ? {} : { filter: request.filter }),
    ...(request.scoreThreshold === undefined ? {} : { scoreThreshold: request.scoreThreshold }),
    ...(request.params === undefined ? {} : { params: request.params }),
    ...(request.idf === undefined ? {} : { idf: request.idf }),
  };
  const query = request.query;
  if ((query?.kind === 'nearest' || query?.kind === 'point') && query.mmr !== undefined) {
    // MMR picks `limit` (offset not counted, as in Qdrant) among the nearest `candidates_limit`.
    const { mmr, ...nearest } = query;
    const candidates = await runStage(
      reader,
      { ...stage, query: nearest, limit: mmr.candidatesLimit ?? request.limit },
      undefined,
    );
    return rerankByMmr(reader, candidates, nearest, request.using ?? '', mmr, request.limit);
  }
  return runStage(reader, stage, undefined);
}

/** A hit as returned to the client. */
export function toRecord(
  reader: CollectionReader,
  hit: QueryHit,
  options: Parameters<CollectionReader['record']>[1],
): ScoredPointRecord {
  // Built in place by the reader: a spread per hit was most of a `limit: 1e9` query's cost.
  const record = reader.scoredRecord(
    hit,
    options,
    // A scroll-like stage scores 1; fusion over it keeps version 0 and replaces only the score.
    hit.score,
    hit.scrolled === true ? 0 : hit.item.version,
  );
  if (hit.orderValue !== undefined) record.order_value = hit.orderValue;
  return record;
}

/** How many prefetch stages a list holds, nested ones included (stops counting past the bound). */
function countStages(prefetch: readonly PrefetchRequest[]): number {
  let count = 0;
  for (const stage of prefetch) {
    count += 1 + countStages(stage.prefetch);
    if (count > MAX_QUERY_STAGES) break;
  }
  return count;
}

/** One query level. `inherited` is the filter of every enclosing level, ANDed into this one. */
async function runStage(
  reader: CollectionReader,
  stage: PrefetchRequest,
  inherited: Filter | undefined,
): Promise<QueryHit[]> {
  const filter = combineFilters(inherited, stage.filter);
  const query = stage.query;
  if (query?.kind === 'order_by' && stage.scoreThreshold !== undefined) {
    throw badRequest("Can't use score_threshold with an order_by query.");
  }
  if (query === undefined && stage.prefetch.length > 0) {
    throw badRequest(
      "A query is needed to merge the prefetches. Can't have prefetches without defining a query.",
    );
  }
  const test = reader.predicate(filter);
  if (stage.prefetch.length === 0) {
    if (query === undefined) return scrolled(await listById(reader, test, stage.limit));
    return scoreAll(reader, stage, query, test, filter);
  }
  const sources: QueryHit[][] = [];
  for (const inner of stage.prefetch) sources.push(await runStage(reader, inner, filter));
  return merge(reader, stage, query as QueryInput, sources);
}

/** A stage without prefetches: its query over every point passing the filter. */
async function scoreAll(
  reader: CollectionReader,
  stage: PrefetchRequest,
  query: QueryInput,
  test: ((entry: PointEntry) => boolean) | undefined,
  filter: Filter | undefined,
): Promise<QueryHit[]> {
  switch (query.kind) {
    // Fusion needs prefetches to fuse; without them there is nothing to rank.
    case 'rrf':
    case 'dbsf':
      return [];
    case 'order_by':
      return byField(reader, query, test, stage.limit);
    case 'sample':
      return sample(
        await filterInSlices([...reader.table.values()], (entry) => test === undefined || test(entry)),
        stage.limit,
      );
    default: {
      const { vector, exclude } = resolveVector(reader, query, stage);
      const accept =
        exclude === undefined ? test : (p: PointEntry) => p !== exclude && (test === undefined || test(p));
      return reader.nearest(vector, stage.limit, accept, stage.scoreThreshold, stage.params, filter);
    }
  }
}

/** A stage with prefetches: fusion of their lists, or its own query over the union of their points. */
async function merge(
  reader: CollectionReader,
  stage: PrefetchRequest,
  query: QueryInput,
  prefetched: readonly QueryHit[][],
): Promise<QueryHit[]> {
  // The prefetches hand the event loop back between searches: a point deleted or rewritten meanwhile is left
  // out (its old entry's slots are freed, so rescoring it would read no vector and answer a null score).
  // In slices: two whole-collection prefetches are 200k lookups.
  const isCurrent = (hit: QueryHit) => reader.table.getByKey(hit.item.key) === hit.item;
  const sources: QueryHit[][] = [];
  for (const hits of prefetched) sources.push(await filterInSlices(hits, isCurrent));
  if (query.kind === 'rrf' || query.kind === 'dbsf') {
    const fused =
      query.kind === 'rrf'
        ? await fuseRanks(sources, query.k, query.weights, keyOf, compareEntries)
        : await fuseDistributions(sources, keyOf, compareEntries);
    // Fusion applies score_threshold inclusively (`collection/query.rs::intermediates_to_final_list`).
    const threshold = stage.scoreThreshold;
    const end = threshold === undefined ? -1 : fused.findIndex((hit) => !(hit.score >= threshold));
    return (end < 0 ? fused : fused.slice(0, end)).slice(0, stage.limit);
  }
  const union = new Map<string, PointEntry>();
  for (const hits of sources) for (const hit of hits) union.set(hit.item.key, hit.item);
  if (query.kind === 'order_by') {
    return byField(reader, query, (entry) => union.get(entry.key) === entry, stage.limit);
  }
  if (query.kind === 'sample') return sample([...union.values()], stage.limit);
  const { vector, exclude } = resolveVector(reader, query, stage);
  if (exclude !== undefined) union.delete(exclude.key);
  return reader.rescore(vector, [...union.values()], stage.limit, stage.scoreThreshold);
}

/** The query vector for `nearest` or a point id; a point-id query also excludes that point from its results. */
function resolveVector(
  reader: CollectionReader,
  query: Extract<QueryInput, { kind: 'nearest' | 'point' }>,
  stage: PrefetchRequest,
): { vector: PreparedQuery; exclude?: PointEntry } {
  const using = stage.using ?? '';
  if (query.kind === 'nearest') return { vector: reader.prepareQuery(using, query.vector, stage.idf) };
  const entry = reader.table.get(query.id);
  const vector = entry === undefined ? undefined : reader.storedQuery(entry, using, stage.idf);
  if (entry === undefined || vector === undefined) {
    throw notFound(`Vector with name "${using}" for point not found`);
  }
  return { vector, exclude: entry };
}

/** `order_by` as a query: the scroll ordering by a range-indexed key, each hit carrying its order value. */
async function byField(
  reader: CollectionReader,
  query: Extract<QueryInput, { kind: 'order_by' }>,
  test: ((entry: PointEntry) => boolean) | undefined,
  limit: number,
): Promise<QueryHit[]> {
  checkRangeIndex(reader, query.orderBy);
  const ordered = await orderByField(reader, query.orderBy, test, limit);
  return mapInSlices(ordered, ({ entry, value }) => ({
    item: entry,
    score: 1,
    scrolled: true,
    orderValue: value,
  }));
}

/** `sample: "random"`: up to `limit` distinct points drawn uniformly (a partial Fisher–Yates shuffle). */
function sample(candidates: PointEntry[], limit: number): QueryHit[] {
  const count = Math.min(limit, candidates.length);
  for (let i = 0; i < count; i++) {
    const j = i + Math.floor(Math.random() * (candidates.length - i));
    const picked = candidates[j] as PointEntry;
    candidates[j] = candidates[i] as PointEntry;
    candidates[i] = picked;
  }
  return candidates.slice(0, count).map((item) => ({ item, score: 1, scrolled: true }));
}

/** Points in id order as hits of a stage without a query (Qdrant's query without a query). */
function scrolled(entries: readonly PointEntry[]): Promise<QueryHit[]> {
  return mapInSlices(entries, (item) => ({ item, score: 1, scrolled: true }));
}

/** AND of two optional filters. */
export function combineFilters(a: Filter | undefined, b: Filter | undefined): Filter | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return {
    must: [
      { kind: 'filter', filter: a },
      { kind: 'filter', filter: b },
    ],
    should: null,
    mustNot: null,
    minShould: null,
  };
}
