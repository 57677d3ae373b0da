/**
 * @module `params.idf` of a sparse query (Qdrant 1.19, `lib/shard/src/query/query_context.rs`): it must name a
 * sparse vector with the `idf` modifier (else 400, never ignored), and with a `corpus` filter the statistics
 * N and df come from the points matching that filter only, whatever the query's own filter.
 */
import { badInput } from '../qdrant-error.js';
import type { IdfParams } from './engine-api.js';
import type { PointEntry, PointTable, SparseVectorData } from './point-table.js';
import { inverseDocumentFrequency } from './sparse-search.js';
import type { VectorConfig } from './vector-config.js';

/** 400 when `params.idf` is given for a vector it cannot apply to (dense, or sparse without `idf`). */
export function checkIdfApplies(vectors: VectorConfig, name: string, idf: IdfParams | undefined): void {
  if (idf === undefined || vectors.sparse.get(name)?.modifier === 'idf') return;
  throw badInput(
    `search param \`idf\` requires a sparse vector with the \`idf\` modifier, which vector ${JSON.stringify(name)} is not`,
  );
}

/** Whether a sorted index list holds `index` (binary search). */
function holds(indices: Uint32Array, index: number): boolean {
  let low = 0;
  let high = indices.length - 1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    const value = indices[mid] as number;
    if (value === index) return true;
    if (value < index) low = mid + 1;
    else high = mid - 1;
  }
  return false;
}

/**
 * The query with each weight multiplied by its dimension's idf over the corpus: N = the corpus points holding
 * this sparse vector, df = those of them having the dimension. An empty corpus gives idf(0, 0) = ln 2 per
 * dimension, never the global statistics. One pass over the collection per query.
 */
export function weightQueryOverCorpus(
  query: SparseVectorData,
  name: string,
  table: PointTable,
  inCorpus: (entry: PointEntry) => boolean,
): SparseVectorData {
  let documents = 0;
  const frequencies = new Array<number>(query.indices.length).fill(0);
  for (const entry of table.values()) {
    const doc = entry.sparse.get(name);
    if (doc === undefined || !inCorpus(entry)) continue;
    documents++;
    for (let i = 0; i < query.indices.length; i++) {
      if (holds(doc.indices, query.indices[i] as number)) frequencies[i] = (frequencies[i] as number) + 1;
    }
  }
  const values = new Float32Array(query.values.length);
  for (let i = 0; i < values.length; i++) {
    const idf = inverseDocumentFrequency(documents, frequencies[i] as number);
    values[i] = Math.fround((query.values[i] as number) * idf);
  }
  return { indices: query.indices, values };
}
