/**
 * @module Exact scores for a candidate list whose f32 values are on disk, reading as few as the answer needs:
 * each candidate's int8 codes (in RAM) bound its exact dot product from above, candidates are read best bound
 * first, and reading stops once the k-th exact score beats every bound left, so the top k are those of scoring
 * every candidate (the graph's candidates and pending vectors: graph-search.ts). The bound is searchQuantized's
 * (vector-search.ts), per candidate: |q·x − c·d/(s·t)| <= slots.errorUnits(|d|₁, |c|₁) / (s·t).
 */
import { type QuantizedQuery, quantizeQuery } from './quantize-query.js';
import type { ScoreFunction, TopK } from './vector-scoring.js';
import type { SlotOwner, VectorSlots } from './vector-slots.js';

/** Owners read per batch: each is a SQLite lookup of its own, so small batches read at most this many too many. */
const READ_BATCH = 8;

/** Each owner's upper bound on its exact dot product with the query (-Infinity for one without a slot). */
function upperBounds<Owner extends SlotOwner>(
  slots: VectorSlots<Owner>,
  owners: readonly Owner[],
  query: QuantizedQuery,
  values: Float32Array,
): Float64Array {
  let valuesL1 = 0;
  for (let i = 0; i < values.length; i++) valuesL1 += Math.abs(values[i] as number);
  const { dim } = slots;
  const codes = slots.codes();
  const scales = slots.scale * query.scale;
  const bounds = new Float64Array(owners.length);
  for (let i = 0; i < owners.length; i++) {
    const slot = (owners[i] as Owner).slot;
    if (slot < 0) {
      bounds[i] = Number.NEGATIVE_INFINITY;
      continue;
    }
    // On disk the fine codes bound it ~256 times tighter (fine-codes.ts).
    const fine = slots.fineBound(slot, values, valuesL1);
    if (fine !== undefined) {
      bounds[i] = fine;
      continue;
    }
    let dot = 0;
    let l1 = 0;
    for (let j = 0, at = slot * dim; j < dim; j++, at++) {
      const code = codes[at] as number;
      dot += code * (query.codes[j] as number);
      l1 += Math.abs(code);
    }
    // 1e-6: the exact score is an f32 rounding of an f64 sum (vector-scoring.ts), as searchQuantized allows.
    bounds[i] = (dot + slots.errorUnits(query.l1, l1)) / scales + 1e-6;
  }
  return bounds;
}

/**
 * Offers `owners` to `top` (a similarity top k) with their exact scores, as offering every one would, reading
 * from the slots (on disk: SQLite) only those whose bound can still reach the top k.
 */
export function offerByBound<Owner extends SlotOwner>(
  top: TopK<Owner>,
  slots: VectorSlots<Owner>,
  owners: readonly Owner[],
  query: Float32Array,
  score: ScoreFunction,
): void {
  const quantized = quantizeQuery(query);
  const bounds = quantized === undefined ? undefined : upperBounds(slots, owners, quantized, query);
  const order = Array.from(owners.keys());
  if (bounds !== undefined) order.sort((a, b) => (bounds[b] as number) - (bounds[a] as number));
  for (let start = 0; start < order.length; ) {
    const worst = top.worst();
    // No owner from here on can beat (or tie) the k-th exact score: the answer is complete.
    if (bounds !== undefined && worst !== undefined && worst > (bounds[order[start] as number] as number))
      return;
    const taken = order.slice(start, start + READ_BATCH).map((i) => owners[i] as Owner);
    const { data, offsets } = slots.rowsOf(taken);
    for (let i = 0; i < taken.length; i++) {
      const offset = offsets[i] as number;
      if (offset >= 0) top.offer(taken[i] as Owner, score(data, offset, query));
    }
    start += taken.length;
  }
}
