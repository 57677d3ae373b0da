/**
 * @module The points whose number under a payload-indexed key may lie in a range, found by binary search in a
 * sorted list of that key's values, as Qdrant's numeric field index answers a range condition, instead of
 * testing every point's payload. Recall within a precise window ("last weekend") filters the parts by a range
 * on `timestamp`: a thin filter, which the dense search then tested on every part (900,000 at 100,000 chunks).
 * The caller still tests the whole filter on every candidate: a candidate may be stale, never missing.
 */
import type { FieldCondition } from '../filter/filter-ast.js';
import type { PointEntry } from './point-table.js';

/** One key's values in ascending order, and the points written since it was sorted (all candidates). */
interface SortedKey {
  readonly values: Float64Array;
  readonly entries: readonly PointEntry[];
  readonly recent: PointEntry[];
  removed: number;
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
 * Each key's sorted values, built on the first range search over it (one pass and a sort) and kept while the
 * writes since are few: past an eighth of the points written or a quarter removed, it is dropped and built
 * again when next asked, so a write costs a push and memory stays bounded.
 */
export class RangeCandidates {
  readonly #keys = new Map<string, SortedKey>();

  /** A new or rewritten point, or one whose payload changed. */
  added(entry: PointEntry): void {
    for (const [key, sorted] of this.#keys) {
      sorted.recent.push(entry);
      if (sorted.recent.length > Math.max(1024, sorted.entries.length / 8)) this.#keys.delete(key);
    }
  }

  /** A deleted or replaced point (or one whose payload is about to change). */
  removed(): void {
    for (const [key, sorted] of this.#keys) {
      if (++sorted.removed > Math.max(1024, sorted.entries.length / 4)) this.#keys.delete(key);
    }
  }

  /**
   * Every point that can pass `condition` (and maybe some that no longer do), when its key has a payload index
   * in `indexed` and they are at most `atMost`; undefined when the condition is not such a range, or when more.
   */
  matching(
    condition: FieldCondition,
    indexed: ReadonlySet<string> | ReadonlyMap<string, unknown>,
    points: () => Iterable<PointEntry>,
    atMost: number,
  ): ReadonlySet<PointEntry> | undefined {
    const range = readRange(condition);
    if (range === undefined || !indexed.has(condition.key)) return undefined;
    this.#dropUnindexed(indexed);
    let sorted = this.#keys.get(condition.key);
    if (sorted === undefined) {
      sorted = sortValues(condition.key, points());
      this.#keys.set(condition.key, sorted);
    }
    const from = search(sorted.values, range.low, false);
    const to = search(sorted.values, range.high, true);
    if (to - from + sorted.recent.length > atMost) return undefined;
    const found = new Set<PointEntry>(sorted.recent);
    for (let i = from; i < to; i++) found.add(sorted.entries[i] as PointEntry);
    return found;
  }

  #dropUnindexed(indexed: ReadonlySet<string> | ReadonlyMap<string, unknown>): void {
    for (const key of this.#keys.keys()) if (!indexed.has(key)) this.#keys.delete(key);
  }
}

/** Every (value, point) of `key` in ascending value order. */
function sortValues(key: string, points: Iterable<PointEntry>): SortedKey {
  const values: number[] = [];
  const owners: PointEntry[] = [];
  for (const entry of points) {
    for (const value of numbersOf(entry.payload[key])) {
      values.push(value);
      owners.push(entry);
    }
  }
  const order = new Int32Array(values.length);
  for (let i = 0; i < order.length; i++) order[i] = i;
  order.sort((a, b) => (values[a] as number) - (values[b] as number));
  const sortedValues = new Float64Array(order.length);
  const entries = new Array<PointEntry>(order.length);
  for (let i = 0; i < order.length; i++) {
    sortedValues[i] = values[order[i] as number] as number;
    entries[i] = owners[order[i] as number] as PointEntry;
  }
  return { values: sortedValues, entries, recent: [], removed: 0 };
}
