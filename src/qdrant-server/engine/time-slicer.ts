/**
 * @module Cooperative time slices for long reads. The store shares its process (and event loop) with the
 * service, so a read that scores or serializes 100k points in one go would stall every other request; long
 * loops instead check `due()` every few hundred items and, once the running slice has used SLICE_MS,
 * `await next()` hands the event loop back before they go on.
 *
 * The budget belongs to the event-loop turn, not to one loop: every sliced loop of every request draws on the
 * same slice, so steps chained within one turn (a filter pass, then a scan, then building records) cannot
 * each take a full slice. Waiting slices queue up and one runs per turn of the event loop (a single
 * setImmediate pump, first come first served), so three huge reads at once still let timers and I/O in
 * between every slice rather than after three of them.
 */

/** How long the running slice may run before it hands the event loop back. */
export const SLICE_MS = 8;

/** Items a long loop handles between two `due()` checks: cheap enough, and far below a slice's work. */
export const CHECK_EVERY = 256;

/** When the running slice began, valid while `marked` (until the turn it was measured in is over). */
let sliceStart = 0;
let marked = false;
/** Bumped for each new slice, so the end-of-turn reset of an older slice leaves a newer one alone. */
let generation = 0;

/** Starts measuring a slice now; it counts as over once the event loop has moved on to a later turn. */
function beginSlice(): void {
  const mine = ++generation;
  sliceStart = performance.now();
  marked = true;
  setImmediate(() => {
    if (generation === mine) marked = false;
  });
}

/** Whether the running slice has used its time (the first check of a turn starts its slice). */
export function sliceDue(): boolean {
  if (!marked) beginSlice();
  return performance.now() - sliceStart >= SLICE_MS;
}

const waiting: (() => void)[] = [];
let pumpScheduled = false;

/** Grants the next slice to the longest waiting read, one per turn of the event loop. */
function pump(): void {
  pumpScheduled = false;
  const resume = waiting.shift();
  if (waiting.length > 0) schedulePump();
  if (resume === undefined) return;
  beginSlice();
  resume();
}

function schedulePump(): void {
  if (pumpScheduled) return;
  pumpScheduled = true;
  setImmediate(pump);
}

/** Hands the event loop back, then resumes in a fresh slice of its own (after any reads already waiting). */
export function nextSlice(): Promise<void> {
  return new Promise<void>((resolve) => {
    waiting.push(resolve);
    schedulePump();
  });
}

/** `nextSlice()` when the running slice is due; call every CHECK_EVERY items or so. */
export async function pauseIfDue(): Promise<void> {
  if (sliceDue()) await nextSlice();
}

/** The slice functions as an object, for loops that pass one along. */
export class TimeSlicer {
  due(): boolean {
    return sliceDue();
  }

  next(): Promise<void> {
    return nextSlice();
  }

  pause(): Promise<void> {
    return pauseIfDue();
  }
}

/** `items.map(fn)` in time slices. */
export async function mapInSlices<T, U>(
  items: ArrayLike<T>,
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

/** The items passing `test`, in order, in time slices. */
export async function filterInSlices<T>(items: Iterable<T>, test: (item: T) => boolean): Promise<T[]> {
  const out: T[] = [];
  let i = 0;
  for (const item of items) {
    if (i++ % CHECK_EVERY === 0) await pauseIfDue();
    if (test(item)) out.push(item);
  }
  return out;
}
