/**
 * @module Exact nearest-neighbor search over a VectorSlots block. Large searches go to usearch's SIMD
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
 *
 * A filter is a predicate on owners, not a list: one that keeps a large share of the points is tested only on
 * the int8 pass's candidates (filtered-candidates.ts), since testing every point's payload cost more than the
 * scan itself; a thin one is tested on every point once and searched over just the matching slots.
 */
import { MetricKind, exactSearch } from 'usearch';
import { gatherCodes } from './code-gather.js';
import type { Distance } from './engine-api.js';
import { estimateShare, slotsAccepted } from './filtered-candidates.js';
import { orderByScore } from './score-order.js';
import { quantizeQuery } from './quantize-query.js';
import { offerRankedFromDisk, type ScoreMemo } from './ranked-disk-rescore.js';
import { CHECK_EVERY, TimeSlicer, mapInSlices } from './time-slicer.js';
import { type Scored, TopK, isSimilarity, scorerFor } from './vector-scoring.js';
import type { SlotOwner, VectorSlots } from './vector-slots.js';

/** Below this many f32 values a JS loop beats the native call and its candidate check. */
const SMALL_SCAN_VALUES = 1 << 18;
/** Euclid has no int8 pass: scan the matching slots in JS when they are at most this share of all slots. */
const FILTERED_SCAN_SHARE = 0.2;
/** f32 unit roundoff (2^-24), doubled to cover usearch's summation order. */
const F32_ROUNDOFF = 1.2e-7;

export interface NearestRequest<Owner extends SlotOwner> {
  readonly slots: VectorSlots<Owner>;
  readonly distance: Distance;
  /** Already prepared (f32, normalized for Cosine), a standalone array. */
  readonly query: Float32Array;
  readonly k: number;
  /**
   * Restricts candidates to the owners it accepts; undefined means every slot. Called synchronously, before
   * the search first yields, and on as few owners as the search can manage with.
   */
  readonly accept?: (owner: Owner) => boolean;
  readonly tieBreak: (a: Owner, b: Owner) => number;
}

/** A request whose filter has been applied: the candidates are these slots (any order), or every slot. */
interface CandidateRequest<Owner extends SlotOwner> extends Omit<NearestRequest<Owner>, 'accept'> {
  readonly allowed?: Int32Array;
}

/**
 * Below this share of accepted points, test every point and search the matching ones; above it, test only the
 * int8 pass's candidates. Measured at 100k x 1536 with every point tested: a filter keeping half the points
 * cost 2.8x an unfiltered search gathered (the copy dominated) and 1.05x masked, a tenth 0.7x gathered.
 */
const GATHER_SHARE = 0.15;
/** Extra candidates beyond k + slack / share, so that k pass despite the estimate's sampling error. */
const POST_FILTER_MARGIN = 1.25;

/** The k best slots' owners with their exact scores, best first. */
export async function searchNearest<Owner extends SlotOwner>(
  request: NearestRequest<Owner>,
): Promise<Scored<Owner>[]> {
  const { accept, ...rest } = request;
  if (request.k <= 0 || request.slots.count === 0) return [];
  if (accept === undefined) return searchCandidates(rest);
  const found = searchPostFiltered(request, accept);
  if (found !== undefined) return found;
  return searchCandidates({ ...rest, allowed: slotsAccepted(request.slots, accept) });
}

/**
 * The k best among the given slots only (a filter's matching points, found through a payload index): the
 * search a thin filter gets, without testing every point first.
 */
export function searchAmong<Owner extends SlotOwner>(
  request: Omit<NearestRequest<Owner>, 'accept'>,
  allowed: Int32Array,
): Promise<Scored<Owner>[]> {
  return searchCandidates({ ...request, allowed });
}

/**
 * A broad filter on a similarity search: the int8 pass over every code, asked for enough candidates that k of
 * them pass the filter, which is tested on those candidates only. The completeness proof is the unfiltered
 * one (no point left out can beat the k-th accepted candidate), so the result is exact; undefined when the
 * filter is thin, the proof fails or too few candidates pass, and the caller tests every point instead.
 */
function searchPostFiltered<Owner extends SlotOwner>(
  request: NearestRequest<Owner>,
  accept: (owner: Owner) => boolean,
): Scored<Owner>[] | undefined {
  const { slots } = request;
  if (!isSimilarity(request.distance) || slots.count * slots.dim <= SMALL_SCAN_VALUES) return undefined;
  const share = estimateShare(slots, accept);
  if (share <= GATHER_SHARE) return undefined;
  const wanted = Math.ceil(((request.k + 256) / share) * POST_FILTER_MARGIN);
  // Past half the points, scoring the matching ones outright is as cheap.
  if (wanted * 2 > slots.count) return undefined;
  const keep = (slot: number) => accept(slots.owner(slot));
  return searchQuantized(request, { codes: slots.codes(), keep }, wanted);
}

/** The search once the candidates are known. */
async function searchCandidates<Owner extends SlotOwner>(
  request: CandidateRequest<Owner>,
): Promise<Scored<Owner>[]> {
  const { slots, distance, allowed } = request;
  const total = slots.count;
  const candidates = allowed === undefined ? total : allowed.length;
  if (request.k <= 0 || candidates === 0) return [];
  // Every candidate is returned (say `limit: 1e9`): score them all once and sort, with no selection at all.
  if (request.k >= candidates) return rankAll(request);
  // usearch has no L1 metric; Manhattan is always a JS scan. On disk a similarity search never scans: the int8
  // pass reads only the candidates its proof needs, where a scan would read every vector back.
  const small = candidates * slots.dim <= SMALL_SCAN_VALUES && !(slots.onDisk && isSimilarity(distance));
  if (distance === 'Manhattan' || small) return scanInJs(request);
  if (allowed !== undefined && candidates <= total * GATHER_SHARE) {
    // A thin filter: masking a scan of every point would mostly score points that cannot be returned.
    if (isSimilarity(distance)) {
      const subset: Subset = { codes: gatherCodes(slots.codes(), slots.dim, allowed), slotOf: allowed };
      const packed = (slack: number) => Math.min(request.k + slack, allowed.length);
      const memo: ScoreMemo<Owner> = new Map();
      return (
        searchQuantized(request, subset, packed(256), memo) ??
        searchQuantized(request, subset, packed(4096), memo) ??
        (slots.onDisk ? searchQuantized(request, subset, allowed.length, memo) : undefined) ??
        scanInJs(request)
      );
    }
  }
  if (allowed !== undefined && !isSimilarity(distance) && candidates <= total * FILTERED_SCAN_SHARE) {
    return scanInJs(request);
  }
  const keep = allowed === undefined ? undefined : keepOf(allowed, total);
  if (isSimilarity(distance)) {
    const whole: Subset = keep === undefined ? { codes: slots.codes() } : { codes: slots.codes(), keep };
    // One memo for the passes: on disk, a row read by a pass is not read again by the next one.
    const memo: ScoreMemo<Owner> = new Map();
    const coarse =
      searchQuantized(request, whole, candidateCount(request, 256), memo) ??
      searchQuantized(request, whole, candidateCount(request, 4096), memo) ??
      // On disk, every code ranked: complete by construction, reading only as far as the bound needs.
      (slots.onDisk ? searchQuantized(request, whole, total, memo) : undefined);
    if (coarse !== undefined) return coarse;
  }
  const fast = searchWithUsearch(request, keep);
  if (fast !== undefined) return fast;
  return scanInJs(request);
}

/**
 * The int8 codes one quantized pass searches: every slot (usearch key = slot, `keep` dropping filtered-out
 * ones), or a packed subset whose row i is slot `slotOf[i]`.
 */
interface Subset {
  readonly codes: Int8Array;
  readonly keep?: (slot: number) => boolean;
  readonly slotOf?: Int32Array;
}

/** The candidates' owners as the search begins: every slot's, or the allowed slots'. */
function ownersOf<Owner extends SlotOwner>(request: CandidateRequest<Owner>): Owner[] {
  const { slots, allowed } = request;
  if (allowed === undefined) return slots.ownersSnapshot();
  return Array.from(allowed, (slot) => slots.owner(slot));
}

/**
 * Calls `visit` with each candidate's owner and exact score, in time slices; an owner whose vector is gone by
 * the time its turn comes (slot -1) is skipped.
 */
async function scoreInSlices<Owner extends SlotOwner>(
  request: CandidateRequest<Owner>,
  visit: (owner: Owner, score: number) => void,
): Promise<void> {
  const { slots, query } = request;
  const score = scorerFor(request.distance);
  const owners = ownersOf(request);
  const slicer = new TimeSlicer();
  for (let start = 0; start < owners.length; start += CHECK_EVERY) {
    await slicer.pause();
    // Read after every pause: growing replaces the buffer (and on disk, each slice reads its own vectors).
    const slice = owners.slice(start, start + CHECK_EVERY);
    const { data, offsets } = slots.rowsOf(slice);
    for (let i = 0; i < slice.length; i++) {
      const offset = offsets[i] as number;
      if (offset >= 0) visit(slice[i] as Owner, score(data, offset, query));
    }
  }
}

/** Every candidate, exactly scored and sorted best first (ties by `tieBreak`). */
async function rankAll<Owner extends SlotOwner>(request: CandidateRequest<Owner>): Promise<Scored<Owner>[]> {
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

async function scanInJs<Owner extends SlotOwner>(request: CandidateRequest<Owner>): Promise<Scored<Owner>[]> {
  const top = new TopK<Owner>(request.k, isSimilarity(request.distance), request.tieBreak);
  await scoreInSlices(request, (owner, score) => top.offer(owner, score));
  return top.items;
}

/**
 * Asks usearch for more candidates than needed (many more when a filter thins them out), re-scores them in JS,
 * and returns undefined when the k-th exact score is not safely better than anything usearch left out.
 */
function searchWithUsearch<Owner extends SlotOwner>(
  request: CandidateRequest<Owner>,
  keep: ((slot: number) => boolean) | undefined,
): Scored<Owner>[] | undefined {
  const { slots, distance, query } = request;
  const data = slots.data();
  // On disk there is no f32 block to hand usearch.
  if (data === undefined) return undefined;
  const metric = isSimilarity(distance) ? MetricKind.IP : MetricKind.L2sq;
  const found = exactSearch(data, query, slots.dim, candidateCount(request, 32), metric, 0);
  const top = rescore(request, data, found.keys, keep);
  const keys = found.keys;
  if (keys.length >= slots.count) return top.items;
  const worst = top.worst();
  const boundary = found.distances[keys.length - 1];
  if (worst === undefined || boundary === undefined) return undefined;
  if (!isProvenComplete(request, worst, boundary)) return undefined;
  return top.items;
}

/** Membership in `allowed` by slot, through a byte mask. */
function keepOf(allowed: Int32Array, total: number): (slot: number) => boolean {
  const mask = new Uint8Array(total);
  for (let i = 0; i < allowed.length; i++) mask[allowed[i] as number] = 1;
  return (slot) => mask[slot] === 1;
}

/** How many candidates to ask for: `k` plus slack, scaled up by how much a filter thins them out. */
function candidateCount<Owner extends SlotOwner>(request: CandidateRequest<Owner>, slack: number): number {
  const total = request.slots.count;
  const wanted =
    request.allowed === undefined
      ? request.k + slack
      : Math.ceil(((request.k + slack) * total) / Math.max(1, request.allowed.length)) * 2;
  return Math.min(wanted, total);
}

/**
 * The int8 pass for dot-product scores. Codes are c = round(x·s) for stored vectors and d = round(q·t) for the
 * query, so x = c/s + e with |e_i| <= δ/s (δ = slots.codeError, 0.5 unless on-disk codes were re-scaled) and
 * q = d/t + f with |f_i| <= 0.5/t. Then |q·x − c·d/(s·t)| <= (δ·|d|₁ + 0.5·|c|₁ + 0.5·δ·dim) / (s·t), with |c|₁
 * at most slots.maxCodeL1 (slots.errorUnits).
 * usearch computes c·d exactly in integers and reports 1 − c·d as an f32, hence the small extra slack.
 */
function searchQuantized<Owner extends SlotOwner>(
  request: NearestRequest<Owner>,
  subset: Subset,
  wanted: number,
  memo: ScoreMemo<Owner> = new Map(),
): Scored<Owner>[] | undefined {
  const { slots, query } = request;
  const total = subset.codes.length / slots.dim;
  const quantized = quantizeQuery(query);
  if (quantized === undefined) return undefined;
  const { codes, scale: queryScale, l1: queryL1 } = quantized;
  const found = exactSearch(subset.codes, codes, slots.dim, wanted, MetricKind.IP, 0);
  const scales = slots.scale * queryScale;
  /** The most a point whose usearch distance (1 − code dot) is `distance` can score exactly. */
  const most = (distance: number) =>
    (1 - distance + Math.abs(distance) * 2.4e-7 + 1 + slots.errorUnits(queryL1, slots.maxCodeL1)) / scales +
    1e-6;
  const { keys, distances } = found;
  const score = scorerFor(request.distance);
  const top = new TopK<Owner>(request.k, true, request.tieBreak);
  const slotAt = (i: number) => {
    const key = Number(keys[i]);
    const slot = subset.slotOf === undefined ? key : (subset.slotOf[key] as number);
    return subset.keep === undefined || subset.keep(slot) ? slot : -1;
  };
  const block = slots.data();
  if (block === undefined) {
    let queryAbs = 0;
    for (let i = 0; i < query.length; i++) queryAbs += Math.abs(query[i] as number);
    const ranked = {
      slots,
      count: keys.length,
      slotAt,
      boundFrom: (i: number) => most(distances[i] as number),
      // The fine codes' bound, far tighter than the int8 one (fine-codes.ts).
      boundOf: (i: number, slot: number) =>
        slots.fineBound(slot, query, queryAbs) ?? most(distances[i] as number),
    };
    if (offerRankedFromDisk(top, ranked, query, score, memo)) return top.items;
  } else {
    for (let i = 0; i < keys.length; i++) {
      const worst = top.worst();
      // Candidates come by ascending distance (usearch partial-sorts them): once one cannot beat the k-th exact
      // score, no later one can, nor any point left out, so the rest need neither scoring nor filtering.
      if (worst !== undefined && worst > most(distances[i] as number)) return top.items;
      const slot = slotAt(i);
      if (slot >= 0) top.offer(slots.owner(slot), score(block, slot * slots.dim, query));
    }
  }
  if (keys.length >= total) return top.items;
  const worst = top.worst();
  const boundary = distances[keys.length - 1];
  if (worst === undefined || boundary === undefined) return undefined;
  return worst > most(boundary) ? top.items : undefined;
}

/** Exact JS scores for usearch's candidates (keys are slots) that `keep` keeps. */
function rescore<Owner extends SlotOwner>(
  request: NearestRequest<Owner>,
  data: Float32Array,
  keys: BigUint64Array,
  keep: ((slot: number) => boolean) | undefined,
): TopK<Owner> {
  const { slots, distance, query } = request;
  const score = scorerFor(distance);
  const top = new TopK<Owner>(request.k, isSimilarity(distance), request.tieBreak);
  for (let i = 0; i < keys.length; i++) {
    const slot = Number(keys[i]);
    if (keep !== undefined && !keep(slot)) continue;
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
