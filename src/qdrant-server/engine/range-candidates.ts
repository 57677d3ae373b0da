/**
 * @module The points whose number under a payload-indexed key may lie in a range, found by binary search in a
 * sorted list of that key's values, as Qdrant's numeric field index answers a range condition, instead of
 * testing every point's payload. Recall within a precise window ("last weekend") filters the parts by a range
 * on `timestamp`: a thin filter, which the dense search then tested on every part (900,000 at 100,000 chunks).
 * The caller still tests the whole filter on every candidate: a candidate may be stale, never missing.
 */
import type { FieldCondition } from '../filter/filter-ast.js';
import type { PointEntry } from './point-table.js';
import { CHECK_EVERY, pauseIfDue } from './time-slicer.js';

/**
 * One key's values in ascending order once `ready`, and the points written since its build began (all
 * candidates); past `maxWrites` of either kind it is dropped.
 */
interface SortedKey {
  values: Float64Array;
  entries: readonly PointEntry[];
  ready: boolean;
  readonly recent: PointEntry[];
  removed: number;
  readonly maxWrites: number;
}

/** A key's list before it is sorted, for a collection of `total` points. */
function emptySortedKey(total: number): SortedKey {
  return {
    values: new Float64Array(0),
    entries: [],
    ready: false,
    recent: [],
    removed: 0,
    maxWrites: Math.max(1024, total / 8),
  };
}

/** A top-level key (the one-key path compile-filter reads directly), so the values are `payload[key]`. */
const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The range condition this can answer: a range alone on a plain key, numeric bounds, at least one bound. */
function readRange(condition: FieldCondition): { readonly low: number; readonly high: number } | undefined {
  const { range } = condition;
  if (range === undefined || range.datetime || !PLAIN_KEY.test(condition.key)) return undefined;
  if (condition.match || condition.geo || condition.valuesCount || condition.isEmpty !== undefined)
    return undefined;
  if (condition.isNull !== undefined) return undefined;
  const { gt, gte, lt, lte } = range.bounds;
  const low = Math.max(gt ?? Number.NEGATIVE_INFINITY, gte ?? Number.NEGATIVE_INFINITY);
  const high = Math.min(lt ?? Number.POSITIVE_INFINITY, lte ?? Number.POSITIVE_INFINITY);
  if (low === Number.NEGATIVE_INFINITY && high === Number.POSITIVE_INFINITY) return undefined;
  return { low, high };
}

/** The numbers a range test can pass on: the value, or the numbers of an array (one level, as the filter looks). */
function numbersOf(value: unknown): number[] {
  if (typeof value === 'number') return Number.isNaN(value) ? [] : [value];
  if (!Array.isArray(value)) return [];
  return value.filter((v): v is number => typeof v === 'number' && !Number.isNaN(v));
}

/** The first position whose value is >= `value` (`strict`: > `value`). */
function search(values: Float64Array, value: number, strict: boolean): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const at = values[mid] as number;
    if (at < value || (strict && at === value)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Each key's sorted values, built in time slices after the first range search over it asks (that search and
 * those during the build go on as before: this answers undefined), and kept while the writes since are few:
 * past an eighth of the points written or removed, it is dropped and built again when next asked, so a write
 * costs a push and memory stays bounded.
 */
export class RangeCandidates {
  readonly #keys = new Map<string, SortedKey>();

  /** A new or rewritten point, or one whose payload changed. */
  added(entry: PointEntry): void {
    for (const [key, sorted] of this.#keys) {
      sorted.recent.push(entry);
      if (sorted.recent.length > sorted.maxWrites) this.#keys.delete(key);
    }
  }

  /** A deleted or replaced point (or one whose payload is about to change). */
  removed(): void {
    for (const [key, sorted] of this.#keys) {
      if (++sorted.removed > sorted.maxWrites) this.#keys.delete(key);
    }
  }

  /**
   * Every point that can pass `condition` (and maybe some that no longer do), when its key has a payload index
   * in `indexed` and they are at most `atMost`; undefined when the condition is not such a range, when more,
   * or while the key's values are being sorted (`points` lists the `total` points, for that).
   */
  matching(
    condition: FieldCondition,
    indexed: ReadonlySet<string> | ReadonlyMap<string, unknown>,
    points: () => Iterable<PointEntry>,
    total: number,
    atMost: number,
  ): ReadonlySet<PointEntry> | undefined {
    const range = readRange(condition);
    if (range === undefined || !indexed.has(condition.key)) return undefined;
    this.#dropUnindexed(indexed);
    const sorted = this.#keys.get(condition.key);
    if (sorted === undefined) {
      const building = emptySortedKey(total);
      this.#keys.set(condition.key, building);
      void sortValues(condition.key, points(), building);
      return undefined;
    }
    if (!sorted.ready) return undefined;
    const from = search(sorted.values, range.low, false);
    const to = search(sorted.values, range.high, true);
    if (to - from + sorted.recent.length > atMost) return undefined;
    const found = new Set<PointEntry>(sorted.recent);
    for (let i = from; i < to; i++) found.add(sorted.entries[i] as PointEntry);
    return found;
  }

  /**
   * Sorts `key`'s values now, in one go: while the store opens, before it serves (a build during recall shares
   * the thread with it for a second or two at 900,000 parts, and the first window questions wait).
   */
  prepare(key: string, points: Iterable<PointEntry>, total: number): void {
    if (!PLAIN_KEY.test(key)) return;
    const sorted = emptySortedKey(total);
    for (const _ of sortSteps(key, points, sorted));
    this.#keys.set(key, sorted);
  }

  #dropUnindexed(indexed: ReadonlySet<string> | ReadonlyMap<string, unknown>): void {
    for (const key of this.#keys.keys()) if (!indexed.has(key)) this.#keys.delete(key);
  }
}

/**
 * Sorts every (value, point) of `key` into `into`, yielding every CHECK_EVERY steps (a caller pauses there when
 * its slice is due): the values natively, then each point put at its value's place by binary search (a JS
 * comparator sort of 900,000 pairs held the store's thread for seconds on a loaded machine, past recall's
 * deadline). Points written meanwhile are in `into.recent`.
 */
function* sortSteps(key: string, points: Iterable<PointEntry>, into: SortedKey): Generator<void> {
  const values: number[] = [];
  const owners: PointEntry[] = [];
  let seen = 0;
  for (const entry of points) {
    if (++seen % CHECK_EVERY === 0) yield;
    for (const value of numbersOf(entry.payload[key])) {
      values.push(value);
      owners.push(entry);
    }
  }
  yield;
  const sorted = Float64Array.from(values).sort();
  yield;
  const entries = new Array<PointEntry>(sorted.length);
  // Equal values share a run: each goes to its run's next free place.
  const placed = new Int32Array(sorted.length);
  for (let i = 0; i < values.length; i++) {
    if (i % CHECK_EVERY === 0) yield;
    const first = search(sorted, values[i] as number, false);
    entries[first + (placed[first] as number)++] = owners[i] as PointEntry;
  }
  into.values = sorted;
  into.entries = entries;
  into.ready = true;
}

/** sortSteps in time slices, beside the store's other work. */
async function sortValues(key: string, points: Iterable<PointEntry>, into: SortedKey): Promise<void> {
  for (const _ of sortSteps(key, points, into)) await pauseIfDue();
}
