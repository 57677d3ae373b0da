/**
 * @module A collection's points in ascending id order, for scroll and id-ordered queries, kept without ever
 * sorting the whole collection in one step. The first read sorts in time slices (sliced-sort.ts); after that,
 * new points are sorted among themselves and merged in, also in slices. The list may hold points removed or
 * rewritten since it was built: readers resolve each entry to the point that now holds its id (`current`)
 * and skip ids that are gone; removals are compacted away with the next merge, or once they are many.
 */
import { comparePointIds, type PointId } from './point-id.js';
import { mergeInSlices, sortInSlices } from './sliced-sort.js';
import { CHECK_EVERY, pauseIfDue } from './time-slicer.js';

/** Refreshes one read waits for at most: under a stream of inserts it then reads a list missing the newest. */
const MAX_REFRESHES = 2;

/** What the order needs of a point (PointEntry, without importing the table that holds this order). */
export interface IdentifiedPoint {
  readonly id: PointId;
  readonly key: string;
}

const compareEntries = (a: IdentifiedPoint, b: IdentifiedPoint) => comparePointIds(a.id, b.id);

export class IdOrder<PointEntry extends IdentifiedPoint> {
  #sorted: PointEntry[] | null = null;
  /** Points with a new id since `sorted` was snapshotted. */
  #added: PointEntry[] = [];
  #removedCount = 0;
  /** Whether inserts and removals are being tracked (a list exists or is being built). */
  #tracking = false;
  #refreshing: Promise<void> | undefined;

  /** The point that holds `key` now, if any. */
  readonly #current: (key: string) => PointEntry | undefined;
  readonly #all: () => Iterable<PointEntry>;

  constructor(current: (key: string) => PointEntry | undefined, all: () => Iterable<PointEntry>) {
    this.#current = current;
    this.#all = all;
  }

  /** A point with an id not in the table before. */
  inserted(entry: PointEntry): void {
    if (this.#tracking) this.#added.push(entry);
  }

  removed(): void {
    if (this.#tracking) this.#removedCount++;
  }

  /** The id-sorted list; entries may be stale: resolve each with `current` and skip those it gives nothing for. */
  async list(): Promise<readonly PointEntry[]> {
    for (let refresh = 0; refresh < MAX_REFRESHES && this.#needsRefresh(); refresh++) {
      this.#refreshing ??= this.#refresh().finally(() => {
        this.#refreshing = undefined;
      });
      await this.#refreshing;
    }
    return this.#sorted ?? [];
  }

  #needsRefresh(): boolean {
    return this.#sorted === null || this.#added.length > 0 || this.#removedCount > this.#sorted.length / 4;
  }

  async #refresh(): Promise<void> {
    if (this.#sorted === null) {
      this.#tracking = true;
      this.#added = [];
      this.#removedCount = 0;
      this.#sorted = await sortInSlices([...this.#all()], compareEntries);
      return;
    }
    const additions = this.#added;
    const anyRemoved = this.#removedCount > 0;
    this.#added = [];
    this.#removedCount = 0;
    // The points that hold the new ids now (rewritten since, perhaps); ids removed again are left out.
    const fresh = new Set<PointEntry>();
    for (const entry of additions) {
      const now = this.#current(entry.key);
      if (now !== undefined) fresh.add(now);
    }
    const old = this.#sorted;
    const sortedFresh = await sortInSlices([...fresh], compareEntries);
    if (!anyRemoved) {
      // Nothing left the table, so no id came back either: fold the new points in as they are.
      this.#sorted = await insertSorted(old, sortedFresh);
      return;
    }
    const kept: PointEntry[] = [];
    for (let i = 0; i < old.length; i++) {
      if (i % CHECK_EVERY === 0) await pauseIfDue();
      const now = this.#current((old[i] as PointEntry).key);
      // An id removed and inserted again comes back through `fresh`.
      if (now !== undefined && !fresh.has(now)) kept.push(now);
    }
    this.#sorted = await mergeInSlices(kept, sortedFresh, compareEntries);
  }
}

/** Inserts binary-searched one by one when few; the common case, ids growing, is a plain append. */
const FEW_INSERTS = 64;

/** `sorted` with `fresh` (sorted, ids not in `sorted`) folded in, as a new list: readers may hold the old one. */
async function insertSorted<E extends IdentifiedPoint>(
  sorted: readonly E[],
  fresh: readonly E[],
): Promise<E[]> {
  const last = sorted[sorted.length - 1];
  const first = fresh[0];
  if (first === undefined) return sorted.slice();
  if (last === undefined || compareEntries(last, first) < 0) return sorted.concat(fresh);
  if (fresh.length > FEW_INSERTS) return mergeInSlices(sorted, fresh, compareEntries);
  const out = sorted.slice();
  for (const entry of fresh) out.splice(lowerBound(out, entry.id), 0, entry);
  return out;
}

/** Index of the first entry whose id is >= `id` in an id-sorted list. */
export function lowerBound(list: readonly IdentifiedPoint[], id: PointId): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (comparePointIds((list[mid] as IdentifiedPoint).id, id) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
