/**
 * @module Cooperative time slices for long reads. The store shares its process (and event loop) with the
 * service, so a read that scores 100k points in one go would stall every other request; long loops instead
 * check `due()` every few hundred items and, once a slice has run SLICE_MS, `await next()` lets timers, I/O
 * and other requests run (setImmediate) before they go on.
 */

/** How long one slice of a read may run before it hands the event loop back. */
export const SLICE_MS = 8;

/** Items a long loop handles between two `due()` checks: cheap enough, and far below a slice's work. */
export const CHECK_EVERY = 256;

export class TimeSlicer {
  private sliceStart = performance.now();

  /** Whether this slice has used its time. */
  due(): boolean {
    return performance.now() - this.sliceStart >= SLICE_MS;
  }

  /** Hands the event loop back once, then starts a new slice. */
  async next(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.sliceStart = performance.now();
  }

  /** `next()` when the slice is due; call every CHECK_EVERY items or so. */
  async pause(): Promise<void> {
    if (this.due()) await this.next();
  }
}

/** `items.map(fn)` in time slices. */
export async function mapInSlices<T, U>(
  items: readonly T[],
  fn: (item: T) => U,
  slicer = new TimeSlicer(),
): Promise<U[]> {
  const out: U[] = new Array(items.length);
  for (let i = 0; i < items.length; i++) {
    if (i % CHECK_EVERY === 0) await slicer.pause();
    out[i] = fn(items[i] as T);
  }
  return out;
}
