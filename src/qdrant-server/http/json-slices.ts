/**
 * @module Serializes a large result in slices. One JSON.stringify of 100k points with payloads blocks the process
 * (the service included) for hundreds of milliseconds; cutting long arrays into slices of SLICE_ITEMS elements,
 * each stringified between event-loop turns, keeps every block short. Small results are one stringify, as before.
 */
import { nextSlice, sliceDue } from '../engine/time-slicer.js';

/** Elements stringified per piece: a few hundred points with payloads is well under a millisecond or two. */
export const SLICE_ITEMS = 256;

/** A chunk of the body holds at least this much text, and at most about this much (its memory, in flight). */
const MIN_CHUNK_CHARS = 1024;
const MAX_CHUNK_CHARS = 1 << 18;

/**
 * A list whose items are formatted only as they are serialized: 100k formatted points never live at once, so
 * the garbage collector has fewer survivors to copy (its pauses were most of a huge answer's stalls).
 * JSON.stringify sees the formatted array (toJSON); sliceJson formats one slice at a time.
 */
export class MappedList<T, U> {
  constructor(
    readonly items: readonly T[],
    readonly format: (item: T) => U,
  ) {}

  toJSON(): U[] {
    return this.items.map(this.format);
  }
}

/** A list of points (or of lists of points): arrays of numbers, such as vectors, are not worth slicing. */
function isLongList(value: unknown[]): boolean {
  return value.length > SLICE_ITEMS && typeof value[0] === 'object' && value[0] !== null;
}

/**
 * How deep a long list of points can sit in a result: `{groups: [{hits: [...]}]}` of /points/query/groups is
 * the deepest (batches and `{points: [...]}` are shallower).
 */
const MAX_DEPTH = 3;

/** Whether `value` holds a long list of points within the top levels (batches, `{points}`, `{groups}`). */
export function hasLongArray(value: unknown, depth = 0): boolean {
  if (depth > MAX_DEPTH || typeof value !== 'object' || value === null) return false;
  if (value instanceof MappedList) return value.items.length > SLICE_ITEMS;
  if (Array.isArray(value)) {
    if (isLongList(value)) return true;
    return value.length <= SLICE_ITEMS * 4 && value.some((item) => hasLongArray(item, depth + 1));
  }
  return Object.values(value).some((item) => hasLongArray(item, depth + 1));
}

/**
 * The JSON text of `value` as a sequence of pieces, the same text JSON.stringify would give. Only containers
 * that lead to a long list of points are walked; everything else is one stringify per slice or value.
 * Properties whose value is undefined are left out, as JSON.stringify does.
 */
export function* sliceJson(value: unknown, depth = 0): Generator<string> {
  if (value instanceof MappedList && value.items.length > SLICE_ITEMS) {
    const { items, format } = value as MappedList<unknown, unknown>;
    yield '[';
    for (let start = 0; start < items.length; start += SLICE_ITEMS) {
      const parts = items
        .slice(start, start + SLICE_ITEMS)
        .map((item) => JSON.stringify(format(item)) ?? 'null');
      yield (start > 0 ? ',' : '') + parts.join(',');
    }
    yield ']';
    return;
  }
  if (Array.isArray(value) && depth <= MAX_DEPTH && hasLongArray(value, depth)) {
    yield '[';
    for (let start = 0; start < value.length; start += SLICE_ITEMS) {
      const end = Math.min(value.length, start + SLICE_ITEMS);
      if (depth < MAX_DEPTH && value.slice(start, end).some((item) => hasLongArray(item, depth + 1))) {
        for (let i = start; i < end; i++) {
          if (i > 0) yield ',';
          yield* sliceJson(value[i], depth + 1);
        }
      } else {
        const parts = value.slice(start, end).map((item) => JSON.stringify(item) ?? 'null');
        yield (start > 0 ? ',' : '') + parts.join(',');
      }
    }
    yield ']';
    return;
  }
  if (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof MappedList) &&
    hasLongArray(value, depth)
  ) {
    yield '{';
    let first = true;
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined) continue;
      yield `${first ? '' : ','}${JSON.stringify(key)}:`;
      first = false;
      yield* sliceJson(item, depth + 1);
    }
    yield '}';
    return;
  }
  yield JSON.stringify(value) ?? 'null';
}

/**
 * A byte stream of `pieces`. Each pull waits for its turn among the other sliced reads (time-slicer.ts), then
 * serializes pieces until that slice is used up, so writing a 12 MB answer never holds the event loop for long.
 */
export function streamPieces(pieces: Iterator<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      // Let timers, I/O and other requests run before the next chunk.
      await nextSlice();
      const parts: string[] = [];
      let length = 0;
      for (;;) {
        const next = pieces.next();
        if (next.done) {
          if (parts.length > 0) controller.enqueue(encoder.encode(parts.join('')));
          controller.close();
          return;
        }
        parts.push(next.value);
        length += next.value.length;
        // Join small pieces (brackets, keys) with the next slice so each chunk carries real work.
        if (length > MIN_CHUNK_CHARS && (length > MAX_CHUNK_CHARS || sliceDue())) break;
      }
      controller.enqueue(encoder.encode(parts.join('')));
    },
  });
}
