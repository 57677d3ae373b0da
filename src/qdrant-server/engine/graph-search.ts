/**
 * @module The approximate dense search: Qdrant's HNSW path (lib/segment hnsw.rs `search`, read_view/dispatch.rs)
 * over graph-index.ts. The graph proposes `max(k, hnsw_ef)` candidates (more when a filter thins them out),
 * every candidate and every vector written since the graph's last slice is scored exactly in f32, and the best
 * k are returned. Exact search (vector-search.ts) stays where Qdrant keeps its plain search: `exact: true`, a
 * collection under the full-scan threshold, and a filter whose estimated cardinality is under it.
 */
import { offerByBound } from './bounded-rescore.js';
import type { SearchParams } from './engine-api.js';
import { estimateShare } from './filtered-candidates.js';
import type { GraphIndex } from './graph-index.js';
import { isSimilarity, type Scored, type ScoreFunction, scorerFor, TopK } from './vector-scoring.js';
import type { NearestRequest } from './vector-search.js';
import type { SlotOwner, VectorRows } from './vector-slots.js';

/**
 * Written vectors the graph has not taken in yet, past which a search stays exact: scoring them would cost as
 * much, and it happens only while a graph is first built (at start-up, or as a collection crosses the threshold).
 */
const MAX_PENDING = 8192;
/** On disk each pending vector is a SQLite read: past this many, the int8 scan of the exact search costs less. */
const MAX_PENDING_ON_DISK = 1024;
/** Extra candidates beyond `beam / share`, so that k pass a filter despite the share's sampling error. */
const FILTER_MARGIN = 1.5;
/**
 * A beam past this share of the points, or past MAX_BEAM, is searched exactly: the graph walk then costs more
 * than the scan (measured: hnsw_ef 5,000 over 20,000 points took longer than exact) and holds the event loop.
 */
const BEAM_SHARE = 16;
const MAX_BEAM = 4096;

/**
 * The k nearest owners by the graph, exactly scored, best first; undefined when the search must be exact
 * (the caller then runs vector-search.ts).
 */
export function searchGraph<Owner extends SlotOwner>(
  request: NearestRequest<Owner>,
  graph: GraphIndex<Owner>,
  params: SearchParams | undefined,
): Scored<Owner>[] | undefined {
  const { slots, accept, k, query, distance } = request;
  const maxPending = slots.onDisk ? MAX_PENDING_ON_DISK : MAX_PENDING;
  if (params?.exact === true || !graph.active || graph.pending.size > maxPending) return undefined;
  let share = 1;
  if (accept !== undefined) {
    share = estimateShare(slots, accept);
    // Qdrant's small-cardinality rule: a filter leaving fewer points than the threshold is searched exactly.
    if (share * slots.count < graph.options.threshold) return undefined;
  }
  const beam = Math.max(k, params?.hnswEf ?? graph.options.efConstruct);
  const wanted = accept === undefined ? beam : Math.ceil((beam / share) * FILTER_MARGIN);
  if (wanted * BEAM_SHARE > slots.count || wanted > MAX_BEAM) return undefined;
  const score = scorerFor(distance);
  const top = new TopK<Owner>(k, isSimilarity(distance), request.tieBreak);
  const found = graph.nearestOwners(query, wanted);
  const candidates = accept === undefined ? found : found.filter(accept);
  // The sampled share overestimated the filter: too few candidates passed it, so search exactly.
  if (candidates.length < k) return undefined;
  const pending = accept === undefined ? [...graph.pending] : [...graph.pending].filter(accept);
  if (slots.onDisk && isSimilarity(distance)) {
    // Each f32 read is a SQLite lookup: read only the candidates whose int8 bound can still reach the top k.
    offerByBound(top, slots, [...candidates, ...pending], query, score);
    return top.items;
  }
  offerAll(top, slots.rowsOf(candidates), candidates, score, query);
  offerAll(top, slots.rowsOf(pending), pending, score, query);
  return top.items;
}

/** Offers each owner with its exact score; one whose vector is gone (offset -1) is left out. */
function offerAll<Owner extends SlotOwner>(
  top: TopK<Owner>,
  rows: VectorRows,
  owners: readonly Owner[],
  score: ScoreFunction,
  query: Float32Array,
): void {
  for (let i = 0; i < owners.length; i++) {
    const offset = rows.offsets[i] as number;
    if (offset >= 0) top.offer(owners[i] as Owner, score(rows.data, offset, query));
  }
}
