/**
 * @module BM25 as a sparse vector: a part's term weights are BM25's term-frequency half, the query's are 1
 * per term, and the store multiplies in the inverse document frequency (Qdrant's `modifier: "idf"`), which
 * it keeps current as parts come and go. A part's score is then BM25 of the query against the part.
 */
import type { SparseVector } from '../store/hybrid-point-store.js';
import { hashToken } from './token-hash.js';

/** Robertson's standard parameters (as Lucene and Elasticsearch use): term saturation and length normalization. */
export const BM25_K1 = 1.2;
export const BM25_B = 0.75;
/**
 * The average part length in terms, for length normalization. A constant, because the store does not
 * share its corpus statistics; parts are bounded by the embedder's window, and a part of two or three chat
 * messages holds about this many terms after stop words.
 */
export const BM25_AVERAGE_TERMS = 24;

function countTerms(terms: readonly string[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const term of terms) {
    const index = hashToken(term);
    counts.set(index, (counts.get(index) ?? 0) + 1);
  }
  return counts;
}

function toSparse(weights: Map<number, number>): SparseVector {
  const indices = [...weights.keys()].sort((a, b) => a - b);
  return { indices, values: indices.map((index) => weights.get(index)!) };
}

/** A part's vector: `tf * (k1 + 1) / (tf + k1 * (1 - b + b * terms / average))` per distinct term. */
export function encodeDocumentTerms(terms: readonly string[]): SparseVector {
  const norm = BM25_K1 * (1 - BM25_B + (BM25_B * terms.length) / BM25_AVERAGE_TERMS);
  const weights = new Map<number, number>();
  for (const [index, tf] of countTerms(terms)) weights.set(index, (tf * (BM25_K1 + 1)) / (tf + norm));
  return toSparse(weights);
}

/**
 * A query's vector: 1 per distinct term (BM25 counts a query term once); empty when no term is left. Each
 * distinct term is hashed once: a 20 kB query repeats its few hundred words thousands of times.
 */
export function encodeQueryTerms(terms: readonly string[]): SparseVector {
  const weights = new Map<number, number>();
  for (const term of new Set(terms)) weights.set(hashToken(term), 1);
  return toSparse(weights);
}
