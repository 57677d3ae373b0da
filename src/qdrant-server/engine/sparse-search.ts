/**
 * @module Exact sparse search: the dot product over shared dimensions, with Qdrant's `idf` query re-weighting
 * (qdrant-hybrid.md §2). Scores are f32 sums in index order, as `lib/sparse/src/common/sparse_vector.rs::score_vectors`
 * computes them, by a merge over two sorted vectors; a whole top-k search is sparse-top.ts.
 */
import type { SparseVectorParams } from './engine-api.js';
import type { SparseVectorData } from './point-table.js';
import type { SparseIndex } from './sparse-index.js';

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
