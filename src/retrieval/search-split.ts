/**
 * @module Hybrid recall's second look for a question about several people (split-question.ts): one hybrid
 * search per person's question, their rankings merged round-robin, so each person's best passages reach the
 * first hits instead of the second person's trailing ten near-copies of the first's.
 */
import type { Embedder } from '../embedding/embedder.js';
import type { MemoryStore } from '../store/memory-store.js';
import type { FusedEntry } from './fuse-scores.js';
import { type HybridRanking, type HybridSearch, searchHybrid, startWordSearches } from './search-hybrid.js';

const entryKey = (entry: FusedEntry) => (entry.part ? `part:${entry.part.id}` : `chunk:${entry.chunkId}`);

/**
 * Merges rankings by taking each one's best entry not yet taken in turn (the first ranking first), until all
 * are used up: an entry ranked by several counts once, at its first place.
 */
export function mergeRoundRobin(rankings: readonly HybridRanking[]): HybridRanking {
  const entries: FusedEntry[] = [];
  const taken = new Set<string>();
  const next = rankings.map(() => 0);
  for (let left = true; left; ) {
    left = false;
    rankings.forEach((ranking, i) => {
      while (next[i]! < ranking.entries.length && taken.has(entryKey(ranking.entries[next[i]!]!))) next[i]!++;
      const entry = ranking.entries[next[i]!];
      if (entry === undefined) return;
      taken.add(entryKey(entry));
      entries.push(entry);
      next[i]!++;
      left = true;
    });
  }
  const chunks = new Map(rankings.flatMap((ranking) => [...ranking.chunks]));
  return { entries, chunks };
}

/**
 * Searches each of `questions` (the parts of one question) as recall searches a question, with `search`'s
 * collection, filter, threshold and size, and merges the rankings round-robin. `anyWholeChunk` is the whole
 * question's early count of chunks without parts under the same filter (search-hybrid.ts): when it says none,
 * no part's search tests every chunk against the filter for them.
 */
export async function searchSplit(
  store: MemoryStore,
  embedder: Pick<Embedder, 'embed'>,
  search: Omit<HybridSearch, 'vector' | 'queryText'>,
  questions: readonly string[],
  options: { readonly signal: AbortSignal; readonly anyWholeChunk?: Promise<boolean> | undefined },
): Promise<HybridRanking> {
  // The word searches need no vector: sent while the model embeds the parts.
  const words = questions.map((queryText) => {
    const { partLexical } = startWordSearches(store, { ...search, queryText }, { askWholeChunks: false });
    return { partLexical, ...(options.anyWholeChunk ? { anyWholeChunk: options.anyWholeChunk } : {}) };
  });
  const vectors = await embedder.embed(questions, { signal: options.signal, query: true });
  const rankings = await Promise.all(
    questions.map((queryText, i) =>
      searchHybrid(store, { ...search, queryText, vector: Array.from(vectors[i] ?? []) }, words[i]),
    ),
  );
  return mergeRoundRobin(rankings);
}
