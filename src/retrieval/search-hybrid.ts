/**
 * @module Hybrid recall's search: dense and lexical search over a collection's parts and dense search over
 * its chunks (so SillyTavern's points, which have no parts, are still found), each through the store,
 * fused by rank into chunks; chunks found only through their parts are then read by id.
 */
import { partsCollectionName } from '../parts/parts-collection-name.js';
import { encodeQueryTerms } from '../parts/sparse-vector.js';
import { tokenizeText } from '../parts/tokenize-text.js';
import { DENSE_VECTOR, type HybridPointStore, SPARSE_VECTOR } from '../store/hybrid-point-store.js';
import type { PointStore, ScoredStorePoint, StoreFilter } from '../store/point-store.js';
import { type FusedChunk, fuseChunkRanks, type RankedEntry } from './fuse-chunk-ranks.js';

export interface HybridSearch {
  readonly collection: string;
  readonly vector: readonly number[];
  readonly queryText: string;
  /** How many chunks to return (st's `limit * 2`, before exclusions and duplicates). */
  readonly candidates: number;
  /** A cosine floor for the dense signals (BM25 scores are not cosines: the lexical signal has none). */
  readonly scoreThreshold?: number;
  readonly filter?: StoreFilter;
}

/** A chunk point found by hybrid search, best first, with how it was found. */
export interface HybridHit {
  readonly point: ScoredStorePoint;
  readonly fusion: FusedChunk;
}

/** Parts fetched per signal for each chunk wanted: a chunk's best part competes with its own neighbours. */
const PARTS_PER_CANDIDATE = 4;
const PART_FIELDS = ['chunkId', 'messageIds'];

function toPartEntries(points: readonly ScoredStorePoint[]): RankedEntry[] {
  return points.flatMap((p) => {
    const chunkId = p.payload.chunkId;
    if (typeof chunkId !== 'string') return [];
    const messageIds = typeof p.payload.messageIds === 'string' ? p.payload.messageIds : '';
    return [{ chunkId, score: p.score, part: { id: String(p.id), messageIds } }];
  });
}

/**
 * Runs the three searches at once and returns up to `candidates` chunk points, best first; each point's
 * score is its fused score relative to the best possible (1 = ranked first by every signal).
 */
export async function searchHybrid(
  store: PointStore & HybridPointStore,
  search: HybridSearch,
): Promise<HybridHit[]> {
  const parts = partsCollectionName(search.collection);
  const partLimit = search.candidates * PARTS_PER_CANDIDATE;
  const threshold = search.scoreThreshold === undefined ? {} : { scoreThreshold: search.scoreThreshold };
  const filter = search.filter === undefined ? {} : { filter: search.filter };
  const sparse = encodeQueryTerms(tokenizeText(search.queryText));
  const [chunks, partDense, partLexical] = await Promise.all([
    store.searchPoints(search.collection, {
      vector: search.vector,
      limit: search.candidates,
      ...threshold,
      ...filter,
      // A collection in st-qdrant-memory's hybrid fork layout ranks its chunks by words here too.
      queryText: search.queryText,
    }),
    store.queryPoints(parts, {
      query: search.vector,
      using: DENSE_VECTOR,
      limit: partLimit,
      withPayload: PART_FIELDS,
      ...threshold,
      ...filter,
    }),
    // A query of stop words only has no lexical signal.
    sparse.indices.length === 0
      ? undefined
      : store.queryPoints(parts, {
          query: sparse,
          using: SPARSE_VECTOR,
          limit: partLimit,
          withPayload: PART_FIELDS,
          ...filter,
        }),
  ]);
  const fused = fuseChunkRanks({
    chunk_dense: chunks.map((p) => ({ chunkId: String(p.id), score: p.score })),
    part_dense: toPartEntries(partDense),
    ...(partLexical ? { part_lexical: toPartEntries(partLexical) } : {}),
  }).slice(0, search.candidates);
  const known = new Map(chunks.map((p) => [String(p.id), p]));
  const missing = fused.filter((f) => !known.has(f.chunkId)).map((f) => f.chunkId);
  for (const record of await store.retrievePoints(search.collection, missing)) {
    known.set(String(record.id), { id: record.id, score: 0, payload: record.payload });
  }
  // A part whose chunk is gone (deleted by another writer) ranks nothing.
  return fused.flatMap((fusion) => {
    const point = known.get(fusion.chunkId);
    return point ? [{ point: { ...point, score: fusion.relative }, fusion }] : [];
  });
}
