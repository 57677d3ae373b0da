/**
 * @module Exact sparse search: the dot product over shared dimensions, with Qdrant's `idf` query re-weighting
 * (qdrant-hybrid.md §2). Candidates come from the inverted index; each is scored by a merge over sorted indices
 * in f32, in index order, as `lib/sparse/src/common/sparse_vector.rs::score_vectors` does.
 */
import type { SparseVectorParams } from './engine-api.js';
import { type PointEntry, type SparseVectorData, compareEntries } from './point-table.js';
import type { Posting, SparseDoc, SparseIndex } from './sparse-index.js';
import { type Scored, TopK } from './vector-scoring.js';

/**
 * Qdrant's `fancy_idf` in f32: ln((N − df + 0.5) / (df + 0.5) + 1), N the number of stored vectors of that name
 * and df those having the dimension (`lib/segment/src/data_types/query_context.rs::fancy_idf`).
 */
export function inverseDocumentFrequency(documents: number, frequency: number): number {
  const n = Math.fround(documents);
  const df = Math.fround(frequency);
  const ratio = Math.fround(Math.fround(Math.fround(n - df) + 0.5) / Math.fround(df + 0.5));
  return Math.fround(Math.log(Math.fround(ratio + 1)));
}

/** The query as scored: with `idf`, each weight is multiplied by its dimension's idf (`remap_idf_weights`). */
export function weightQuery(
  query: SparseVectorData,
  params: SparseVectorParams,
  index: SparseIndex,
): SparseVectorData {
  if (params.modifier !== 'idf') return query;
  const values = new Float32Array(query.values.length);
  for (let i = 0; i < values.length; i++) {
    const idf = inverseDocumentFrequency(
      index.documentCount,
      index.documentFrequency(query.indices[i] as number),
    );
    values[i] = Math.fround((query.values[i] as number) * idf);
  }
  return { indices: query.indices, values };
}

/** Dot product over shared indices (both sorted), f32 accumulation; undefined when no index is shared. */
export function scoreSparse(a: SparseVectorData, b: SparseVectorData): number | undefined {
  let score = 0;
  let overlap = false;
  let i = 0;
  let j = 0;
  while (i < a.indices.length && j < b.indices.length) {
    const x = a.indices[i] as number;
    const y = b.indices[j] as number;
    if (x < y) i++;
    else if (x > y) j++;
    else {
      overlap = true;
      score = Math.fround(score + Math.fround((a.values[i] as number) * (b.values[j] as number)));
      i++;
      j++;
    }
  }
  return overlap ? score : undefined;
}

/**
 * The `limit` best points sharing at least one dimension with the (already weighted) query, passing `test`,
 * ties by id, cut by the strict threshold (`score > t`: sparse vectors score like Dot).
 *
 * Exact, with MaxScore pruning when every contribution is non-negative (idf weights and term counts are):
 * dimensions are walked by their largest possible contribution, adding partial scores; once the dimensions
 * left could not lift a point up to the k-th partial score (a lower bound of the k-th final score), their
 * posting lists, the long ones of common words, are never walked. The points that can still make it are then
 * scored in full with `scoreSparse`, which sums in Qdrant's order, so scores are exactly the unpruned ones.
 */
export function searchSparse(
  index: SparseIndex,
  query: SparseVectorData,
  limit: number,
  test: ((entry: PointEntry) => boolean) | undefined,
  threshold?: number,
): Scored<PointEntry>[] {
  const terms: { posting: Posting; weight: number; bound: number }[] = [];
  let prunable = true;
  for (let q = 0; q < query.indices.length; q++) {
    const posting = index.posting(query.indices[q] as number);
    if (posting === undefined || posting.size === 0) continue;
    const weight = query.values[q] as number;
    if (weight < 0 || posting.minWeight < 0) prunable = false;
    terms.push({ posting, weight, bound: weight * posting.maxWeight });
  }
  terms.sort((a, b) => b.bound - a.bound);
  // rest[i]: the most that dimensions i.. can add to one point, padded below for rounding.
  const rest = new Float64Array(terms.length + 1);
  for (let i = terms.length - 1; i >= 0; i--) rest[i] = (rest[i + 1] as number) + (terms[i]?.bound as number);
  const search = index.nextSearch();
  const touched: SparseDoc[] = [];
  let walked = 0;
  for (; walked < terms.length; walked++) {
    if (prunable && touched.length >= limit) {
      const kth = kthLargestPartial(touched, limit);
      const left = rest[walked] as number;
      if (left * (1 + 1e-5) < kth * (1 - 1e-5)) break;
    }
    const { posting, weight } = terms[walked] as (typeof terms)[number];
    const { docs, weights } = posting;
    for (let i = 0; i < docs.length; i++) {
      const doc = docs[i] as SparseDoc;
      if (doc.mark !== search) {
        if (doc.mark === -search) continue;
        if (test !== undefined && !test(doc.point)) {
          doc.mark = -search;
          continue;
        }
        doc.mark = search;
        doc.partial = 0;
        touched.push(doc);
      }
      doc.partial += weight * (weights[i] as number);
    }
  }
  const top = new TopK<PointEntry>(limit, true, compareEntries);
  const left = rest[walked] as number;
  const floor = walked < terms.length ? kthLargestPartial(touched, limit) : Number.NEGATIVE_INFINITY;
  for (const doc of touched) {
    // A point whose partial plus everything left stays below the k-th partial cannot be in the top k.
    if ((doc.partial + left) * (1 + 1e-5) < floor * (1 - 1e-5)) continue;
    const score = scoreSparse(query, doc) as number;
    if (threshold !== undefined && !(score > threshold)) continue;
    top.offer(doc.point, score);
  }
  return top.items;
}

/** The k-th largest partial score among the touched points (k <= their number). */
function kthLargestPartial(touched: readonly SparseDoc[], k: number): number {
  const best = new Float64Array(k).fill(Number.NEGATIVE_INFINITY);
  for (const doc of touched) {
    const partial = doc.partial;
    if (partial <= (best[k - 1] as number)) continue;
    let at = k - 1;
    while (at > 0 && (best[at - 1] as number) < partial) {
      best[at] = best[at - 1] as number;
      at--;
    }
    best[at] = partial;
  }
  return best[k - 1] as number;
}
