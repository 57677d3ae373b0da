/**
 * @module Exact scores for one quantized pass's ranked candidates when the f32 values are on disk
 * (vector-search.ts `searchQuantized`), reading as few SQLite rows as its proof allows: a candidate is read only
 * when its own bound (from its fine codes, fine-codes.ts) can still reach the top k, reads go in batches, and a row read by
 * an earlier pass of the same search is never read again (`memo`). The walk stops where the bound with the
 * largest |c|₁ falls below the k-th exact score, as the in-RAM walk does, so the top k are the same.
 */
import type { ScoreFunction, TopK } from './vector-scoring.js';
import type { SlotOwner, VectorSlots } from './vector-slots.js';

/** Rows read per batch: the size of one batched SQLite read (sqlite-persistence.ts POINT_BATCH). */
const READ_BATCH = 32;

/**
 * Exact scores one search has read from disk, by owner (NaN: no vector any more), shared by its passes. The
 * passes run in one synchronous stretch, so no write changes a vector between them.
 */
export type ScoreMemo<Owner> = Map<Owner, number>;

/** One quantized pass's candidates, best code dot first. */
export interface RankedCandidates<Owner extends SlotOwner> {
  readonly slots: VectorSlots<Owner>;
  readonly count: number;
  /** Candidate i's slot, -1 when a filter leaves it out; called once per candidate reached. */
  readonly slotAt: (i: number) => number;
  /** The most candidate i, or any after it, can score exactly (the int8 bound usearch's ranking gives). */
  readonly boundFrom: (i: number) => number;
  /** The most candidate i can score exactly, from its own codes. */
  readonly boundOf: (i: number, slot: number) => number;
}

/**
 * Offers the candidates to `top` with their exact scores, reading only those that can still rank; true when the
 * bound proved the rest cannot (the walk stopped early), false when every candidate was walked.
 */
export function offerRankedFromDisk<Owner extends SlotOwner>(
  top: TopK<Owner>,
  ranked: RankedCandidates<Owner>,
  query: Float32Array,
  score: ScoreFunction,
  memo: ScoreMemo<Owner>,
): boolean {
  const { slots } = ranked;
  const pending: Owner[] = [];
  const flush = () => {
    if (pending.length === 0) return;
    const { data, offsets } = slots.rowsOf(pending);
    for (let j = 0; j < pending.length; j++) {
      const owner = pending[j] as Owner;
      const offset = offsets[j] as number;
      const exact = offset < 0 ? Number.NaN : score(data, offset, query);
      memo.set(owner, exact);
      if (offset >= 0) top.offer(owner, exact);
    }
    pending.length = 0;
  };
  for (let i = 0; i < ranked.count; i++) {
    const worst = top.worst();
    // The candidates still pending may only raise the k-th score: none from here on can reach it.
    if (worst !== undefined && worst > ranked.boundFrom(i)) {
      flush();
      return true;
    }
    const slot = ranked.slotAt(i);
    if (slot < 0) continue;
    const owner = slots.owner(slot);
    const known = memo.get(owner);
    if (known !== undefined) {
      if (!Number.isNaN(known)) top.offer(owner, known);
      continue;
    }
    // Its own bound is below a k-th score already held (which only rises): it cannot rank, so it is not read.
    if (worst !== undefined && worst > ranked.boundOf(i, slot)) continue;
    pending.push(owner);
    if (pending.length === READ_BATCH) flush();
  }
  flush();
  return false;
}
