/**
 * @module A stable sort in time slices. Sorting 100k points with a comparator takes over 100 ms in one go
 * (an `order_by` scroll of a whole collection, the id order of a freshly loaded one); a bottom-up merge sort
 * does the same work in steps: runs of RUN items are sorted natively, then merged pairwise, checking the
 * shared time slice (time-slicer.ts) every CHECK_EVERY items so other requests run in between.
 */
import { CHECK_EVERY, pauseIfDue } from './time-slicer.js';

/** Items sorted natively in one step: about a millisecond of comparator calls. */
export const RUN = 2048;

/** `items` sorted by `order` (stable, like Array.prototype.sort); `items` itself may be reordered. */
export async function sortInSlices<T>(items: T[], order: (a: T, b: T) => number): Promise<T[]> {
  if (items.length <= RUN) return items.sort(order);
  let source: T[] = [];
  for (let start = 0; start < items.length; start += RUN) {
    await pauseIfDue();
    for (const item of items.slice(start, start + RUN).sort(order)) source.push(item);
  }
  let target: T[] = new Array(items.length);
  for (let width = RUN; width < source.length; width *= 2) {
    let done = 0;
    for (let left = 0; left < source.length; left += 2 * width) {
      const middle = Math.min(left + width, source.length);
      const end = Math.min(left + 2 * width, source.length);
      let a = left;
      let b = middle;
      let out = left;
      while (out < end) {
        if (done++ % CHECK_EVERY === 0) await pauseIfDue();
        // `<= 0` takes the left run first on ties: stable.
        if (b >= end || (a < middle && order(source[a] as T, source[b] as T) <= 0)) {
          target[out++] = source[a++] as T;
        } else target[out++] = source[b++] as T;
      }
    }
    [source, target] = [target, source];
  }
  return source;
}

/**
 * Merges two lists each sorted by `order` into one, in time slices; on ties `older` comes first. Used to fold a
 * few new points into a long sorted list without sorting it again.
 */
export async function mergeInSlices<T>(
  older: readonly T[],
  newer: readonly T[],
  order: (a: T, b: T) => number,
): Promise<T[]> {
  const out: T[] = new Array(older.length + newer.length);
  let a = 0;
  let b = 0;
  for (let i = 0; i < out.length; i++) {
    if (i % CHECK_EVERY === 0) await pauseIfDue();
    if (b >= newer.length || (a < older.length && order(older[a] as T, newer[b] as T) <= 0)) {
      out[i] = older[a++] as T;
    } else out[i] = newer[b++] as T;
  }
  return out;
}
