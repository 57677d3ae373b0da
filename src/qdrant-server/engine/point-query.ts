/**
 * @module `POST /points/query`: nearest and point-id queries, nested prefetches and RRF fusion
 * (qdrant-subset.md §3). Each stage returns hits best first; the root applies offset and limit.
 */
import type { Filter } from '../filter/filter-ast.js';
import { badRequest, notFound, unsupported } from '../qdrant-error.js';
import type { PrefetchRequest, QueryInput, QueryRequest, ScoredPointRecord } from './engine-api.js';
import type { CollectionReader, Hit, PreparedQuery } from './collection-reader.js';
import { type PointEntry, compareEntries } from './point-table.js';
import { TopK } from './vector-scoring.js';

/** Runs a query request and returns the scored records. */
export function runQuery(reader: CollectionReader, request: QueryRequest): ScoredPointRecord[] {
  if (request.query === undefined) {
    if (request.prefetch.length > 0) {
      throw badRequest(
        "A query is needed to merge the prefetches. Can't have prefetches without defining a query.",
      );
    }
    if (request.scoreThreshold !== undefined) {
      throw badRequest(
        "A query is needed to use the score_threshold. Can't have score_threshold without defining a query.",
      );
    }
    // Without a query Qdrant scrolls: id order, score 1.0, version 0.
    return listById(reader, request.filter, request.offset + request.limit)
      .slice(request.offset)
      .map((hit) => ({ ...reader.record(hit.item, request), score: 1, version: 0 }));
  }
  const stage: PrefetchRequest = {
    query: request.query,
    ...(request.using === undefined ? {} : { using: request.using }),
    prefetch: request.prefetch,
    filter: request.filter,
    limit: request.offset + request.limit,
    scoreThreshold: request.scoreThreshold,
  };
  return runStage(reader, stage, undefined)
    .slice(request.offset)
    .map((hit) => ({ ...reader.record(hit.item, request), score: hit.score, version: hit.item.version }));
}

/** One query level. `inherited` is the filter of every enclosing level, ANDed into this one. */
function runStage(reader: CollectionReader, stage: PrefetchRequest, inherited: Filter | undefined): Hit[] {
  const filter = combineFilters(inherited, stage.filter);
  const query = stage.query;
  if (query?.kind === 'dbsf') throw unsupported('DBSF fusion (`{"fusion":"dbsf"}`)');
  if (stage.prefetch.length === 0) {
    if (query === undefined) return listById(reader, filter, stage.limit);
    if (query.kind === 'rrf') return [];
    const { vector, exclude } = resolveVector(reader, query, stage.using ?? '');
    const test = reader.predicate(filter);
    const accept =
      exclude === undefined ? test : (p: PointEntry) => p !== exclude && (test === undefined || test(p));
    return reader.nearest(vector, stage.limit, accept, stage.scoreThreshold);
  }
  if (query === undefined) {
    throw badRequest(
      "A query is needed to merge the prefetches. Can't have prefetches without defining a query.",
    );
  }
  const sources = stage.prefetch.map((inner) => runStage(reader, inner, filter));
  if (query.kind === 'rrf') return fuseByRank(sources, query.k, stage.limit, stage.scoreThreshold);
  const { vector, exclude } = resolveVector(reader, query, stage.using ?? '');
  const union = new Map<string, PointEntry>();
  for (const hits of sources)
    for (const hit of hits) if (hit.item !== exclude) union.set(hit.item.key, hit.item);
  return reader.rescore(vector, [...union.values()], stage.limit, stage.scoreThreshold);
}

/** The query vector for `nearest` or a point id; a point-id query also excludes that point from its results. */
function resolveVector(
  reader: CollectionReader,
  query: Extract<QueryInput, { kind: 'nearest' | 'point' }>,
  using: string,
): { vector: PreparedQuery; exclude?: PointEntry } {
  if (query.kind === 'nearest') return { vector: reader.prepareQuery(using, query.vector) };
  const entry = reader.table.get(query.id);
  const vector = entry === undefined ? undefined : reader.storedQuery(entry, using);
  if (entry === undefined || vector === undefined) {
    throw notFound(`Vector with name "${using}" for point not found`);
  }
  return { vector, exclude: entry };
}

/** Points in id order that pass the filter, as hits scored 1.0 (Qdrant's query without a query). */
function listById(reader: CollectionReader, filter: Filter | undefined, limit: number): Hit[] {
  const test = reader.predicate(filter);
  const hits: Hit[] = [];
  for (const entry of reader.table.ordered()) {
    if (hits.length >= limit) break;
    if (test === undefined || test(entry)) hits.push({ item: entry, score: 1 });
  }
  return hits;
}

/** Reciprocal rank fusion: Σ 1/(rank + k) with 0-based ranks; the threshold is inclusive here (`>=`). */
function fuseByRank(
  sources: readonly Hit[][],
  k: number,
  limit: number,
  threshold: number | undefined,
): Hit[] {
  const fused = new Map<string, { entry: PointEntry; score: number }>();
  for (const hits of sources) {
    hits.forEach((hit, rank) => {
      const current = fused.get(hit.item.key) ?? { entry: hit.item, score: 0 };
      current.score += 1 / (rank + k);
      fused.set(hit.item.key, current);
    });
  }
  const top = new TopK<PointEntry>(limit, true, compareEntries);
  for (const { entry, score } of fused.values()) {
    const rounded = Math.fround(score);
    if (threshold === undefined || rounded >= threshold) top.offer(entry, rounded);
  }
  return top.items;
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
