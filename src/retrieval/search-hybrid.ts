/**
 * @module Hybrid recall's search: dense and lexical search over a collection's parts, and dense search over
 * its chunks that have no parts (SillyTavern's points, written without a `source`), each through the store,
 * fused into one ranking of parts and whole chunks.
 */
import { partsCollectionName } from '../parts/parts-collection-name.js';
import { encodeQueryTerms } from '../parts/sparse-vector.js';
import { tokenizeText } from '../parts/tokenize-text.js';
import { DENSE_VECTOR, SPARSE_VECTOR } from '../store/hybrid-point-store.js';
import type { ScoredStorePoint, StoreCondition, StoreFilter } from '../store/point-store.js';
import { allOf, withoutSource } from '../store/store-filters.js';
import { type FusedEntry, fuseScores, type RankedEntry } from './fuse-scores.js';
import type { MemoryStore } from '../store/memory-store.js';

export interface HybridSearch {
  readonly collection: string;
  readonly vector: readonly number[];
  readonly queryText: string;
  /** How many hits are wanted (st's `limit * 2`, before exclusions and duplicates). */
  readonly candidates: number;
  /** A cosine floor for the dense signals (BM25 scores are not cosines: the lexical signal has none). */
  readonly scoreThreshold?: number;
  readonly filter?: StoreFilter;
}

export interface HybridRanking {
  /** Parts and whole chunks, best first. */
  readonly entries: readonly FusedEntry[];
  /** The chunk points the chunk search found (the others are read by id when a passage needs them). */
  readonly chunks: ReadonlyMap<string, ScoredStorePoint>;
}

/** Parts fetched per signal for each hit wanted: a hit's best part competes with its own neighbors. */
const PARTS_PER_CANDIDATE = 4;
const PART_FIELDS = ['chunkId', 'messageIds'];
/**
 * Chunks memory-pool writes carry a `source` and have parts; the chunk search looks only at the others, so
 * a chunk is never ranked both whole and by its parts.
 */
const WITHOUT_PARTS: StoreCondition = withoutSource();

function toPartEntries(points: readonly ScoredStorePoint[]): RankedEntry[] {
  return points.flatMap((p) => {
    const chunkId = p.payload.chunkId;
    if (typeof chunkId !== 'string') return [];
    const messageIds = typeof p.payload.messageIds === 'string' ? p.payload.messageIds : '';
    return [{ chunkId, score: p.score, part: { id: String(p.id), messageIds } }];
  });
}

/** Merges two lists sorted best first into one, best first (equal scores keep parts first). */
function mergeByScore(a: readonly RankedEntry[], b: readonly RankedEntry[]): RankedEntry[] {
  const merged: RankedEntry[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i]!.score >= b[j]!.score)) merged.push(a[i++]!);
    else merged.push(b[j++]!);
  }
  return merged;
}

/** Runs the three searches at once and fuses them. */
export async function searchHybrid(store: MemoryStore, search: HybridSearch): Promise<HybridRanking> {
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
      filter: allOf(WITHOUT_PARTS, ...(search.filter ? [search.filter] : [])),
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
  const wholeChunks = chunks.map((p) => ({ chunkId: String(p.id), score: p.score }));
  const entries = fuseScores({
    dense: mergeByScore(toPartEntries(partDense), wholeChunks),
    ...(partLexical ? { lexical: toPartEntries(partLexical) } : {}),
  });
  return { entries, chunks: new Map(chunks.map((p) => [String(p.id), p])) };
}
