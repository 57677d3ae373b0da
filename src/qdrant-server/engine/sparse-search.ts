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
 * Exact, with MaxScore-style pruning when every contribution is non-negative (idf weights and term counts are):
 * dimensions are walked by their largest possible contribution (rare, high-idf words first), and every point
 * met for the first time is scored in full with `scoreSparse` (its own few dimensions, in Qdrant's summation
 * order). Once the dimensions left could not lift a point that has none of the walked ones above the k-th full
 * score (or the threshold), their posting lists, the long ones of common words, are never walked: a chat-sized
 * query then touches the few hundred points sharing its rare words, not most of the collection.
 */
export function searchSparse(
  index: SparseIndex,
  query: SparseVectorData,
  limit: number,
  test: ((entry: PointEntry) => boolean) | undefined,
  threshold?: number,
): Scored<PointEntry>[] {
  const terms: { posting: Posting; bound: number }[] = [];
  let prunable = true;
  for (let q = 0; q < query.indices.length; q++) {
    const posting = index.posting(query.indices[q] as number);
    if (posting === undefined || posting.size === 0) continue;
    const weight = query.values[q] as number;
    if (weight < 0 || posting.minWeight < 0) prunable = false;
    terms.push({ posting, bound: weight * posting.maxWeight });
  }
  terms.sort((a, b) => b.bound - a.bound);
  // rest[i]: the most that dimensions i.. can add to a point having none of the dimensions before i.
  const rest = new Float64Array(terms.length + 1);
  for (let i = terms.length - 1; i >= 0; i--) rest[i] = (rest[i + 1] as number) + (terms[i]?.bound as number);
  const search = index.nextSearch();
  const top = new TopK<PointEntry>(limit, true, compareEntries);
  for (let walked = 0; walked < terms.length; walked++) {
    if (prunable && cannotReach(rest[walked] as number, top.worst(), threshold)) break;
    const { docs } = (terms[walked] as (typeof terms)[number]).posting;
    for (let i = 0; i < docs.length; i++) {
      const doc = docs[i] as SparseDoc;
      if (doc.mark === search) continue;
      doc.mark = search;
      if (test !== undefined && !test(doc.point)) continue;
      const score = scoreSparse(query, doc) as number;
      if (threshold !== undefined && !(score > threshold)) continue;
      top.offer(doc.point, score);
    }
  }
  return top.items;
}

/**
 * Whether a point scoring at most `most` can neither pass the threshold nor enter a full top k whose worst
 * score is `kth`. The slack covers f64 bounds against f32 sums, and a tie that the id would break.
 */
function cannotReach(most: number, kth: number | undefined, threshold: number | undefined): boolean {
  const padded = most * (1 + 1e-5) + 1e-30;
  if (threshold !== undefined && padded <= threshold) return true;
  return kth !== undefined && padded < kth * (1 - 1e-5);
}
