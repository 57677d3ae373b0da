/**
 * @module Exact nearest-neighbour search over a VectorSlots block. Large unfiltered searches go to usearch's
 * SIMD `exactSearch`; its candidates are re-scored in JS and accepted only when an error bound proves no
 * point outside them could rank higher, otherwise the search falls back to a full JS scan. Results are
 * therefore always exact (the same as scoring every point), just faster.
 */
import { MetricKind, exactSearch } from 'usearch';
import type { Distance } from './engine-api.js';
import { type Scored, TopK, isSimilarity, scorerFor } from './vector-scoring.js';
import type { SlotOwner, VectorSlots } from './vector-slots.js';

/** Below this many f32 values a JS loop beats the native call and its candidate check. */
const SMALL_SCAN_VALUES = 1 << 18;
/** With a filter, scan the matching slots in JS when they are at most this share of all slots. */
const FILTERED_SCAN_SHARE = 0.2;
/** f32 unit roundoff (2^-24), doubled to cover usearch's summation order. */
const F32_ROUNDOFF = 1.2e-7;

export interface NearestRequest<Owner extends SlotOwner> {
  readonly slots: VectorSlots<Owner>;
  readonly distance: Distance;
  /** Already prepared (f32, normalised for Cosine), a standalone array. */
  readonly query: Float32Array;
  readonly k: number;
  /** Restricts candidates to these slots (ascending not required); undefined means every slot. */
  readonly allowed?: Int32Array;
  readonly tieBreak: (a: Owner, b: Owner) => number;
}

/** The k best slots' owners with their exact scores, best first. */
export function searchNearest<Owner extends SlotOwner>(request: NearestRequest<Owner>): Scored<Owner>[] {
  const { slots, distance, allowed } = request;
  const total = slots.count;
  const candidates = allowed === undefined ? total : allowed.length;
  if (request.k <= 0 || candidates === 0) return [];
  // usearch has no L1 metric; Manhattan is always a JS scan.
  const jsOnly =
    distance === 'Manhattan' ||
    candidates * slots.dim <= SMALL_SCAN_VALUES ||
    (allowed !== undefined && candidates <= total * FILTERED_SCAN_SHARE);
  if (!jsOnly) {
    const fast = searchWithUsearch(request);
    if (fast !== undefined) return fast;
  }
  return scanInJs(request);
}

function scanInJs<Owner extends SlotOwner>(request: NearestRequest<Owner>): Scored<Owner>[] {
  const { slots, query, allowed } = request;
  const score = scorerFor(request.distance);
  const data = slots.raw();
  const dim = slots.dim;
  const top = new TopK<Owner>(request.k, isSimilarity(request.distance), request.tieBreak);
  const n = allowed === undefined ? slots.count : allowed.length;
  for (let i = 0; i < n; i++) {
    const slot = allowed === undefined ? i : (allowed[i] as number);
    top.offer(slots.owner(slot), score(data, slot * dim, query));
  }
  return top.items;
}

/**
 * Asks usearch for more candidates than needed (many more when a filter thins them out), re-scores them in JS,
 * and returns undefined when the k-th exact score is not safely better than anything usearch left out.
 */
function searchWithUsearch<Owner extends SlotOwner>(
  request: NearestRequest<Owner>,
): Scored<Owner>[] | undefined {
  const { slots, distance, query, allowed, k } = request;
  const total = slots.count;
  let mask: Uint8Array | undefined;
  let wanted = k + 32;
  if (allowed !== undefined) {
    mask = new Uint8Array(total);
    for (let i = 0; i < allowed.length; i++) mask[allowed[i] as number] = 1;
    wanted = Math.ceil(((k + 16) * total) / allowed.length) * 2;
  }
  wanted = Math.min(wanted, total);
  const similarity = isSimilarity(distance);
  const metric = similarity ? MetricKind.IP : MetricKind.L2sq;
  const found = exactSearch(slots.data(), query, slots.dim, wanted, metric, 0);
  const score = scorerFor(distance);
  const data = slots.raw();
  const top = new TopK<Owner>(k, similarity, request.tieBreak);
  const keys = found.keys;
  for (let i = 0; i < keys.length; i++) {
    const slot = Number(keys[i]);
    if (mask !== undefined && mask[slot] === 0) continue;
    top.offer(slots.owner(slot), score(data, slot * slots.dim, query));
  }
  if (keys.length >= total) return top.items;
  const worst = top.worst();
  const boundary = found.distances[keys.length - 1];
  if (worst === undefined || boundary === undefined) return undefined;
  if (!isProvenComplete(request, worst, boundary)) return undefined;
  return top.items;
}

/**
 * usearch's distances differ from exact ones by at most ~dim·ε·|q|·|x| (dot) or ~dim·ε·(|q|+|x|)² (squared L2).
 * Every point usearch did not return has a usearch distance >= `boundary`, so if the k-th kept exact score
 * beats the boundary by more than that error, nothing outside the candidates can displace it.
 */
function isProvenComplete<Owner extends SlotOwner>(
  request: NearestRequest<Owner>,
  worstScore: number,
  boundary: number,
): boolean {
  const { slots, query } = request;
  let querySquared = 0;
  for (let i = 0; i < query.length; i++) querySquared += (query[i] as number) * (query[i] as number);
  const queryNorm = Math.sqrt(querySquared);
  const storedNorm = Math.sqrt(slots.maxNormSquared);
  const relative = slots.dim * F32_ROUNDOFF * 2;
  if (isSimilarity(request.distance)) {
    const error = relative * queryNorm * storedNorm + 1e-6;
    // IP distance is 1 - dot, so the best score left out is at most 1 - boundary + error.
    return worstScore > 1 - boundary + 2 * error;
  }
  const error = relative * (queryNorm + storedNorm) ** 2 + 1e-6;
  const smallestLeftOut = Math.sqrt(Math.max(0, boundary - 2 * error));
  return worstScore < smallestLeftOut;
}
