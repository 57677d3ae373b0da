/**
 * @module Hybrid recall's ranking: reciprocal rank fusion (Cormack, Clarke and Büttcher, SIGIR 2009) of
 * chunk-level rankings. A ranking of parts ranks chunks by their best part (a chunk's rank is the rank of
 * its first part among distinct chunks), so a chunk is as good as the best window of what it holds.
 */

/** The signals hybrid recall fuses. */
export type SignalName = 'chunk_dense' | 'part_dense' | 'part_lexical';

/** One entry of a ranked list, best first: a chunk itself, or one of its parts. */
export interface RankedEntry {
  readonly chunkId: string;
  /** The store's score (cosine for dense, BM25 for lexical). */
  readonly score: number;
  /** Set when the entry is a part. */
  readonly part?: { readonly id: string; readonly messageIds: string };
}

/** Where a chunk stood in one signal. */
export interface SignalRank {
  readonly rank: number;
  readonly score: number;
  /** The part that ranked the chunk (its best one), for part signals. */
  readonly partId?: string;
}

/** A part that ranked its chunk in at least one signal. */
export interface RankedPart {
  readonly id: string;
  readonly messageIds: string;
  /** Its place among the parts of each signal's list, and its score there. */
  readonly ranks: Partial<Record<SignalName, { readonly rank: number; readonly score: number }>>;
}

export interface FusedChunk {
  readonly chunkId: string;
  /** Σ 1 / (k + rank) over the signals that found the chunk. */
  readonly fused: number;
  /** `fused` over its maximum (first in every signal queried): 1 = ranked first by every signal. */
  readonly relative: number;
  readonly signals: Partial<Record<SignalName, SignalRank>>;
  readonly parts: readonly RankedPart[];
}

/** RRF's k as in the paper and in most engines: it damps the head so one signal cannot dominate. */
export const RRF_K = 60;

interface Builder {
  fused: number;
  signals: Partial<Record<SignalName, SignalRank>>;
  parts: Map<string, { id: string; messageIds: string; ranks: RankedPart['ranks'] }>;
  bestDense: number;
}

/**
 * Fuses ranked lists (each best first) into one chunk ranking, best first; ties go to the better dense
 * score, then to the chunk id (a stable order).
 */
export function fuseChunkRanks(
  lists: Partial<Record<SignalName, readonly RankedEntry[]>>,
  k: number = RRF_K,
): FusedChunk[] {
  const chunks = new Map<string, Builder>();
  const queried = Object.values(lists).filter((list) => list !== undefined).length;
  for (const [name, list] of Object.entries(lists) as [SignalName, readonly RankedEntry[]][]) {
    let rank = 0;
    const seen = new Set<string>();
    for (const [position, entry] of list.entries()) {
      let chunk = chunks.get(entry.chunkId);
      if (chunk === undefined) {
        chunk = { fused: 0, signals: {}, parts: new Map(), bestDense: Number.NEGATIVE_INFINITY };
        chunks.set(entry.chunkId, chunk);
      }
      if (!seen.has(entry.chunkId)) {
        seen.add(entry.chunkId);
        rank += 1;
        chunk.fused += 1 / (k + rank);
        chunk.signals[name] = {
          rank,
          score: entry.score,
          ...(entry.part ? { partId: entry.part.id } : {}),
        };
        if (name !== 'part_lexical') chunk.bestDense = Math.max(chunk.bestDense, entry.score);
      }
      if (entry.part) {
        const part = chunk.parts.get(entry.part.id) ?? { ...entry.part, ranks: {} };
        // A part's own rank: its place among the parts of that list.
        if (part.ranks[name] === undefined) part.ranks[name] = { rank: position + 1, score: entry.score };
        chunk.parts.set(entry.part.id, part);
      }
    }
  }
  const best = queried / (k + 1);
  return [...chunks.entries()]
    .map(([chunkId, c]) => ({
      chunkId,
      fused: c.fused,
      relative: best > 0 ? c.fused / best : 0,
      signals: c.signals,
      parts: [...c.parts.values()],
      bestDense: c.bestDense,
    }))
    .sort(
      (a, b) =>
        b.fused - a.fused ||
        b.bestDense - a.bestDense ||
        (a.chunkId < b.chunkId ? -1 : a.chunkId > b.chunkId ? 1 : 0),
    )
    .map(({ bestDense: _best, ...chunk }) => chunk);
}
