/**
 * @module The root of a query with `nearest.mmr`: Qdrant first takes the `candidates_limit` nearest points (the
 * request's limit when absent) with the query's filter and score_threshold, then picks `limit` of them by MMR
 * (`planned_query.rs` root plan, `collection/query.rs::intermediates_to_final_list`); offset applies after.
 */
import type { MmrParams, QueryInput, SparseVectorInput } from './engine-api.js';
import type { CollectionReader, Hit } from './collection-reader.js';
import { type MmrCandidate, type MmrVector, selectByMmr } from './mmr.js';
import type { PointEntry } from './point-table.js';
import { prepareSparse } from './vector-config.js';

type VectorQuery = Extract<QueryInput, { kind: 'nearest' | 'point' }>;

/** The vector MMR compares for a point: its stored vector of that name, raw (sparse without idf weights). */
function storedVector(reader: CollectionReader, entry: PointEntry, using: string): MmrVector | undefined {
  if (reader.vectors.sparse.has(using)) return entry.sparse.get(using);
  const stored = reader.storedQuery(entry, using);
  return stored?.kind === 'dense' ? stored.vector : undefined;
}

/** The query's own vector, prepared as stored ones are (Cosine normalized, sparse sorted). */
function queryVector(reader: CollectionReader, query: VectorQuery, using: string): MmrVector | undefined {
  if (query.kind === 'point') {
    const entry = reader.table.get(query.id);
    return entry === undefined ? undefined : storedVector(reader, entry, using);
  }
  if (reader.vectors.sparse.has(using)) return prepareSparse(query.vector as SparseVectorInput);
  const prepared = reader.prepareQuery(using, query.vector);
  return prepared.kind === 'dense' ? prepared.vector : undefined;
}

/** Re-ranks the nearest candidates by MMR and keeps `limit` of them, each with its nearest score. */
export function rerankByMmr<H extends Hit>(
  reader: CollectionReader,
  candidates: readonly H[],
  query: VectorQuery,
  using: string,
  mmr: MmrParams,
  limit: number,
): H[] {
  const vector = queryVector(reader, query, using);
  if (vector === undefined) return [];
  const distance = reader.vectors.sparse.has(using) ? 'Dot' : reader.vectors.denseParams(using).distance;
  const seen = new Set<string>();
  const withVectors: MmrCandidate<H>[] = [];
  for (const hit of candidates) {
    // A point rewritten or deleted while the candidates were ranked has no vector left to compare: skipped.
    const stored = seen.has(hit.item.key) ? undefined : storedVector(reader, hit.item, using);
    if (stored === undefined) continue;
    seen.add(hit.item.key);
    withVectors.push({ hit, vector: stored });
  }
  return selectByMmr(withVectors, vector, distance, mmr, limit);
}
