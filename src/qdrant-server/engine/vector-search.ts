/**
 * @module Exact nearest-neighbour search over a VectorSlots block. Large searches go to usearch's SIMD
 * `exactSearch`, first over the int8 codes (Cosine, Dot), then if needed over the f32 vectors; the candidates
 * are re-scored exactly in JS and accepted only when an error bound proves no point outside them could rank
 * higher. Otherwise the next, slower stage runs, ending in a full JS scan. Results are therefore always exact
 * (the same as scoring every point), just faster.
 *
 * The JS passes over many points (ranking everything for a huge `limit`, Manhattan, the last-resort scan) run
 * in time slices that hand the event loop back (time-slicer.ts). They work from the owners as they were when
 * the search began and read each one's slot when they score it, so a write between slices can neither move a
 * vector under them nor make them score one twice; a point removed or rewritten meanwhile is left out. The
 * usearch passes are single native calls and run between two turns of the event loop.
 */
import { MetricKind, exactSearch } from 'usearch';
import { gatherCodes } from './code-gather.js';
import type { Distance } from './engine-api.js';
import { orderByScore } from './score-order.js';
import { CHECK_EVERY, TimeSlicer, mapInSlices } from './time-slicer.js';
import { type Scored, TopK, isSimilarity, scorerFor } from './vector-scoring.js';
import type { SlotOwner, VectorSlots } from './vector-slots.js';

/** Below this many f32 values a JS loop beats the native call and its candidate check. */
const SMALL_SCAN_VALUES = 1 << 18;
/**
 * With a filter matching at most this share of slots, search a packed copy of just their codes; above it, scan
 * every code and mask. Measured at 100k x 1536: a filter keeping half the points costs 2.8x an unfiltered
 * search gathered (the copy dominates) and 1.05x masked; at a quarter, 1.44x gathered and 1.26x masked; at a
 * tenth gathering wins (0.7x).
 */
const GATHER_SHARE = 0.15;
/** Euclid has no int8 pass: scan the matching slots in JS when they are at most this share of all slots. */
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
export async function searchNearest<Owner extends SlotOwner>(
  request: NearestRequest<Owner>,
): Promise<Scored<Owner>[]> {
  const { slots, distance, allowed } = request;
  const total = slots.count;
  const candidates = allowed === undefined ? total : allowed.length;
  if (request.k <= 0 || candidates === 0) return [];
  // Every candidate is returned (say `limit: 1e9`): score them all once and sort, with no selection at all.
  if (request.k >= candidates) return rankAll(request);
  // usearch has no L1 metric; Manhattan is always a JS scan.
  if (distance === 'Manhattan' || candidates * slots.dim <= SMALL_SCAN_VALUES) return scanInJs(request);
  if (allowed !== undefined && candidates <= total * GATHER_SHARE) {
    // A thin filter: masking a scan of every point would mostly score points that cannot be returned.
    if (isSimilarity(distance)) {
      const subset: Subset = { codes: gatherCodes(slots.codes(), slots.dim, allowed), slotOf: allowed };
      return (
        searchQuantized(request, subset, 256) ?? searchQuantized(request, subset, 4096) ?? scanInJs(request)
      );
    }
  }
  if (allowed !== undefined && !isSimilarity(distance) && candidates <= total * FILTERED_SCAN_SHARE) {
    return scanInJs(request);
  }
  const mask = allowed === undefined ? undefined : maskOf(allowed, total);
  if (isSimilarity(distance)) {
    const whole: Subset = { codes: slots.codes(), mask };
    const coarse = searchQuantized(request, whole, 256) ?? searchQuantized(request, whole, 4096);
    if (coarse !== undefined) return coarse;
  }
  const fast = searchWithUsearch(request, mask);
  if (fast !== undefined) return fast;
  return scanInJs(request);
}

/**
 * The int8 codes one quantized pass searches: every slot (usearch key = slot, `mask` dropping filtered-out
 * ones), or a packed subset whose row i is slot `slotOf[i]`.
 */
interface Subset {
  readonly codes: Int8Array;
  readonly mask?: Uint8Array;
  readonly slotOf?: Int32Array;
}

/** The candidates' owners as the search begins: every slot's, or the allowed slots'. */
function ownersOf<Owner extends SlotOwner>(request: NearestRequest<Owner>): Owner[] {
  const { slots, allowed } = request;
  if (allowed === undefined) return slots.ownersSnapshot();
  return Array.from(allowed, (slot) => slots.owner(slot));
}

/**
 * Calls `visit` with each candidate's owner and exact score, in time slices; an owner whose vector is gone by
 * the time its turn comes (slot -1) is skipped.
 */
async function scoreInSlices<Owner extends SlotOwner>(
  request: NearestRequest<Owner>,
  visit: (owner: Owner, score: number) => void,
): Promise<void> {
  const { slots, query } = request;
  const score = scorerFor(request.distance);
  const dim = slots.dim;
  const owners = ownersOf(request);
  const slicer = new TimeSlicer();
  for (let start = 0; start < owners.length; start += CHECK_EVERY) {
    await slicer.pause();
    // Read after every pause: growing replaces the buffer.
    const data = slots.raw();
    const end = Math.min(owners.length, start + CHECK_EVERY);
    for (let i = start; i < end; i++) {
      const owner = owners[i] as Owner;
      if (owner.slot >= 0) visit(owner, score(data, owner.slot * dim, query));
    }
  }
}

/** Every candidate, exactly scored and sorted best first (ties by `tieBreak`). */
async function rankAll<Owner extends SlotOwner>(request: NearestRequest<Owner>): Promise<Scored<Owner>[]> {
  const size = request.allowed === undefined ? request.slots.count : request.allowed.length;
  const scores = new Float64Array(size);
  const scored: Owner[] = [];
  await scoreInSlices(request, (owner, score) => {
    scores[scored.length] = score;
    scored.push(owner);
  });
  const { tieBreak } = request;
  const order = orderByScore(scores, scored.length, isSimilarity(request.distance), (a, b) =>
    tieBreak(scored[a] as Owner, scored[b] as Owner),
  );
  return mapInSlices(order, (i) => ({ item: scored[i] as Owner, score: scores[i] as number }));
}

async function scanInJs<Owner extends SlotOwner>(request: NearestRequest<Owner>): Promise<Scored<Owner>[]> {
  const top = new TopK<Owner>(request.k, isSimilarity(request.distance), request.tieBreak);
  await scoreInSlices(request, (owner, score) => top.offer(owner, score));
  return top.items;
}

/**
 * Asks usearch for more candidates than needed (many more when a filter thins them out), re-scores them in JS,
 * and returns undefined when the k-th exact score is not safely better than anything usearch left out.
 */
function searchWithUsearch<Owner extends SlotOwner>(
  request: NearestRequest<Owner>,
  mask: Uint8Array | undefined,
): Scored<Owner>[] | undefined {
  const { slots, distance, query } = request;
  const metric = isSimilarity(distance) ? MetricKind.IP : MetricKind.L2sq;
  const found = exactSearch(slots.data(), query, slots.dim, candidateCount(request, 32), metric, 0);
  const top = rescore(request, found.keys, mask);
  const keys = found.keys;
  if (keys.length >= slots.count) return top.items;
  const worst = top.worst();
  const boundary = found.distances[keys.length - 1];
  if (worst === undefined || boundary === undefined) return undefined;
  if (!isProvenComplete(request, worst, boundary)) return undefined;
  return top.items;
}

function maskOf(allowed: Int32Array, total: number): Uint8Array {
  const mask = new Uint8Array(total);
  for (let i = 0; i < allowed.length; i++) mask[allowed[i] as number] = 1;
  return mask;
}

/** How many candidates to ask for: `k` plus slack, scaled up by how much a filter thins them out. */
function candidateCount<Owner extends SlotOwner>(request: NearestRequest<Owner>, slack: number): number {
  const total = request.slots.count;
  const wanted =
    request.allowed === undefined
      ? request.k + slack
      : Math.ceil(((request.k + slack) * total) / Math.max(1, request.allowed.length)) * 2;
  return Math.min(wanted, total);
}

/**
 * The int8 pass for dot-product scores. Codes are c = round(x·s) for stored vectors and d = round(q·t) for the
 * query, so x = c/s + e with |e_i| <= 0.5/s and q = d/t + f with |f_i| <= 0.5/t. Then
 * |q·x − c·d/(s·t)| <= (0.5·|d|₁ + 0.5·|c|₁ + 0.25·dim) / (s·t), with |c|₁ at most slots.maxCodeL1.
 * usearch computes c·d exactly in integers and reports 1 − c·d as an f32, hence the small extra slack.
 */
function searchQuantized<Owner extends SlotOwner>(
  request: NearestRequest<Owner>,
  subset: Subset,
  slack: number,
): Scored<Owner>[] | undefined {
  const { slots, query } = request;
  const total = subset.codes.length / slots.dim;
  let queryMax = 0;
  for (let i = 0; i < query.length; i++) queryMax = Math.max(queryMax, Math.abs(query[i] as number));
  if (queryMax === 0) return undefined;
  const queryScale = 127 / queryMax;
  const codes = new Int8Array(query.length);
  let queryL1 = 0;
  for (let i = 0; i < query.length; i++) {
    codes[i] = Math.round((query[i] as number) * queryScale);
    queryL1 += Math.abs(codes[i] as number);
  }
  const wanted =
    subset.slotOf === undefined ? candidateCount(request, slack) : Math.min(request.k + slack, total);
  const found = exactSearch(subset.codes, codes, slots.dim, wanted, MetricKind.IP, 0);
  const top = rescore(request, found.keys, subset.mask, subset.slotOf);
  if (found.keys.length >= total) return top.items;
  const worst = top.worst();
  const boundary = found.distances[found.keys.length - 1];
  if (worst === undefined || boundary === undefined) return undefined;
  const bestLeftOutCodeDot = 1 - boundary + Math.abs(boundary) * 2.4e-7 + 1;
  const scales = slots.scale * queryScale;
  const error = (0.5 * queryL1 + 0.5 * slots.maxCodeL1 + 0.25 * slots.dim) / scales;
  return worst > bestLeftOutCodeDot / scales + error + 1e-6 ? top.items : undefined;
}

/** Exact JS scores for usearch's candidates that pass the mask; `slotOf` maps packed-subset keys to slots. */
function rescore<Owner extends SlotOwner>(
  request: NearestRequest<Owner>,
  keys: BigUint64Array,
  mask: Uint8Array | undefined,
  slotOf?: Int32Array,
): TopK<Owner> {
  const { slots, distance, query } = request;
  const score = scorerFor(distance);
  const data = slots.raw();
  const top = new TopK<Owner>(request.k, isSimilarity(distance), request.tieBreak);
  for (let i = 0; i < keys.length; i++) {
    const key = Number(keys[i]);
    const slot = slotOf === undefined ? key : (slotOf[key] as number);
    if (mask !== undefined && mask[slot] === 0) continue;
    top.offer(slots.owner(slot), score(data, slot * slots.dim, query));
  }
  return top;
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
