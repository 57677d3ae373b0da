/**
 * @module Hybrid recall's ranking: a convex combination of min-max normalized scores, dense and lexical
 * weighted equally (Bruch, Gai and Ingber, "An Analysis of Fusion Functions for Hybrid Retrieval", ACM TOIS
 * 2023). Unlike reciprocal rank fusion it keeps how far ahead a result is in each signal, so a weak signal's
 * near-ties cannot outvote a strong signal's clear winner (measured in docs/recall.md).
 */

/** The signals hybrid recall fuses: cosine over parts and over chunks without parts (one dense scale), BM25. */
export type SignalName = 'chunk_dense' | 'part_dense' | 'part_lexical';

/** One entry of a ranked list, best first: a part of a chunk, or a whole chunk (one that has no parts). */
export interface RankedEntry {
  readonly chunkId: string;
  /** The store's score (cosine for dense, BM25 for lexical). */
  readonly score: number;
  /** Set when the entry is a part; absent for a whole chunk. */
  readonly part?: { readonly id: string; readonly messageIds: string };
}

/** Where an entry stood in one signal. */
export interface SignalRank {
  /** Its place in that signal's list (1 = best). */
  readonly rank: number;
  readonly score: number;
}

/** One fused entry: a part, or a whole chunk, with its combined score and how each signal saw it. */
export interface FusedEntry {
  readonly chunkId: string;
  readonly part?: { readonly id: string; readonly messageIds: string };
  /** Σ weight × (score − list minimum) / (list maximum − list minimum) over the signals that found it. */
  readonly fused: number;
  /** `fused` over the most the signals that found anything allow: 1 = best in every signal. */
  readonly relative: number;
  readonly signals: Partial<Record<SignalName, SignalRank>>;
}

/** Equal weights: the untuned choice; dense and lexical evidence count alike. */
export const DENSE_WEIGHT = 0.5;
export const LEXICAL_WEIGHT = 0.5;

export interface FusionLists {
  /** Parts (`part_dense`) and chunks without parts (`chunk_dense`), by cosine, best first: one scale. */
  readonly dense: readonly RankedEntry[];
  /** Parts by BM25, best first; absent or empty when the query has no lexical terms. */
  readonly lexical?: readonly RankedEntry[];
}

interface Builder {
  chunkId: string;
  part?: RankedEntry['part'];
  fused: number;
  dense: number;
  signals: Partial<Record<SignalName, SignalRank>>;
}

const entryKey = (entry: RankedEntry) => (entry.part ? `part:${entry.part.id}` : `chunk:${entry.chunkId}`);

/** Scores of a list mapped onto [0, 1] by its own minimum and maximum; a list of equal scores maps to 1. */
function normalize(list: readonly RankedEntry[]): (score: number) => number {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const { score } of list) {
    min = Math.min(min, score);
    max = Math.max(max, score);
  }
  return max > min ? (score) => (score - min) / (max - min) : () => 1;
}

/**
 * Fuses the lists into one ranking of parts and whole chunks, best first; ties go to the better cosine, then
 * to the key (a stable order). An entry listed twice in one list counts once, at its first place.
 */
export function fuseScores(lists: FusionLists): FusedEntry[] {
  const entries = new Map<string, Builder>();
  const weighted: [SignalName | 'dense', readonly RankedEntry[], number][] = [
    ['dense', lists.dense, DENSE_WEIGHT],
    ['part_lexical', lists.lexical ?? [], LEXICAL_WEIGHT],
  ];
  let best = 0;
  for (const [signal, list, weight] of weighted) {
    if (list.length === 0) continue;
    best += weight;
    const scale = normalize(list);
    const seen = new Set<string>();
    for (const [position, entry] of list.entries()) {
      const key = entryKey(entry);
      if (seen.has(key)) continue;
      seen.add(key);
      let built = entries.get(key);
      if (built === undefined) {
        built = {
          chunkId: entry.chunkId,
          ...(entry.part ? { part: entry.part } : {}),
          fused: 0,
          dense: Number.NEGATIVE_INFINITY,
          signals: {},
        };
        entries.set(key, built);
      }
      built.fused += weight * scale(entry.score);
      const name: SignalName = signal !== 'dense' ? signal : entry.part ? 'part_dense' : 'chunk_dense';
      built.signals[name] = { rank: position + 1, score: entry.score };
      if (signal === 'dense') built.dense = entry.score;
    }
  }
  return [...entries.entries()]
    .sort(
      ([aKey, a], [bKey, b]) =>
        b.fused - a.fused || b.dense - a.dense || (aKey < bKey ? -1 : aKey > bKey ? 1 : 0),
    )
    .map(([, { chunkId, part, fused, signals }]) => ({
      chunkId,
      ...(part ? { part } : {}),
      fused,
      relative: best > 0 ? fused / best : 0,
      signals,
    }));
}
