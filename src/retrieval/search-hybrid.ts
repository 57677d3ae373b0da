/**
 * @module Hybrid recall's search: dense and lexical search over a collection's parts, and dense search over
 * its chunks that have no parts (SillyTavern's points, written without a `source`), each through the store,
 * fused into one ranking of parts and whole chunks. What needs no vector can be sent before the vector exists.
 */
import { partsCollectionName } from '../parts/parts-collection-name.js';
import { encodeQueryTerms } from '../parts/sparse-vector.js';
import { tokenizeText } from '../parts/tokenize-text.js';
import { DENSE_VECTOR, SPARSE_VECTOR } from '../store/hybrid-point-store.js';
import type { MemoryStore } from '../store/memory-store.js';
import type { ScoredStorePoint, StoreCondition, StoreFilter } from '../store/point-store.js';
import { allOf, withoutSource } from '../store/store-filters.js';
import { type FusedEntry, fuseScores, type RankedEntry } from './fuse-scores.js';

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

/**
 * What hybrid recall asks the store before the query's vector exists, sent while the model embeds the query:
 * the parts ranked by the query's words, and whether any chunk without parts passes the filter.
 */
export interface WordSearches {
  /** Undefined for a query of stop words only, which has no lexical signal. */
  readonly partLexical: Promise<ScoredStorePoint[] | undefined>;
  /**
   * Most collections hold no chunk without parts (only SillyTavern writes them), and then the chunk search, a
   * filter test of every chunk after the vector came, is not sent: a count of them (the same filter test, less
   * than a scroll for one in the embedded store, which walks the points in id order) asks it while the model
   * embeds. Undefined when the vector is already there (a repeated query): the chunk search is sent at once.
   */
  readonly anyWholeChunk?: Promise<boolean>;
}

/**
 * Starts the searches that need no vector. Each promise may be left unawaited (the embedding failed, or the
 * collection turned out unreadable), so a failure is also caught here; awaiting one still sees it.
 */
export function startWordSearches(
  store: MemoryStore,
  search: Omit<HybridSearch, 'vector'>,
  options: { readonly askWholeChunks: boolean },
): WordSearches {
  const partLexical = searchPartsByWords(store, search);
  partLexical.catch(() => undefined);
  if (!options.askWholeChunks) return { partLexical };
  const anyWholeChunk = store
    .countPoints(search.collection, wholeChunkFilter(search))
    .then((count) => count > 0);
  anyWholeChunk.catch(() => undefined);
  return { partLexical, anyWholeChunk };
}

const wholeChunkFilter = (search: Omit<HybridSearch, 'vector'>): StoreFilter =>
  allOf(WITHOUT_PARTS, ...(search.filter ? [search.filter] : []));

async function searchPartsByWords(
  store: MemoryStore,
  search: Omit<HybridSearch, 'vector'>,
): Promise<ScoredStorePoint[] | undefined> {
  const sparse = encodeQueryTerms(tokenizeText(search.queryText));
  // A query of stop words only has no lexical signal.
  if (sparse.indices.length === 0) return undefined;
  return store.queryPoints(partsCollectionName(search.collection), {
    query: sparse,
    using: SPARSE_VECTOR,
    limit: search.candidates * PARTS_PER_CANDIDATE,
    withPayload: PART_FIELDS,
    ...(search.filter === undefined ? {} : { filter: search.filter }),
  });
}

/**
 * Runs the three searches at once and fuses them; `started` are the word searches already sent for this
 * search (startWordSearches), else they are sent now, beside the vector's.
 */
export async function searchHybrid(
  store: MemoryStore,
  search: HybridSearch,
  started?: WordSearches,
): Promise<HybridRanking> {
  const threshold = search.scoreThreshold === undefined ? {} : { scoreThreshold: search.scoreThreshold };
  const searchWholeChunks = () =>
    store.searchPoints(search.collection, {
      vector: search.vector,
      limit: search.candidates,
      ...threshold,
      filter: wholeChunkFilter(search),
      // A collection in st-qdrant-memory's hybrid fork layout ranks its chunks by words here too.
      queryText: search.queryText,
    });
  let skipped = false;
  const [found, partDense, partLexical] = await Promise.all([
    started?.anyWholeChunk === undefined
      ? searchWholeChunks()
      : started.anyWholeChunk.then((any) => {
          skipped = !any;
          return any ? searchWholeChunks() : [];
        }),
    store.queryPoints(partsCollectionName(search.collection), {
      query: search.vector,
      using: DENSE_VECTOR,
      limit: search.candidates * PARTS_PER_CANDIDATE,
      withPayload: PART_FIELDS,
      ...threshold,
      ...(search.filter === undefined ? {} : { filter: search.filter }),
    }),
    started?.partLexical ?? searchPartsByWords(store, search),
  ]);
  // A count says 0 for a collection gone, where the search fails (and recall drops its parts): with nothing
  // ranked, no chunk is read by id to fail instead, so the search is sent after all.
  const nothing = partDense.length === 0 && (partLexical?.length ?? 0) === 0;
  const chunks = skipped && nothing ? await searchWholeChunks() : found;
  const wholeChunks = chunks.map((p) => ({ chunkId: String(p.id), score: p.score }));
  const entries = fuseScores({
    dense: mergeByScore(toPartEntries(partDense), wholeChunks),
    ...(partLexical ? { lexical: toPartEntries(partLexical) } : {}),
  });
  return { entries, chunks: new Map(chunks.map((p) => [String(p.id), p])) };
}
