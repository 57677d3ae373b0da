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
  private sorted: PointEntry[] | null = null;
  /** Points with a new id since `sorted` was snapshotted. */
  private added: PointEntry[] = [];
  private removedCount = 0;
  /** Whether inserts and removals are being tracked (a list exists or is being built). */
  private tracking = false;
  private refreshing: Promise<void> | undefined;

  constructor(
    /** The point that holds `key` now, if any. */
    private readonly current: (key: string) => PointEntry | undefined,
    private readonly all: () => Iterable<PointEntry>,
  ) {}

  /** A point with an id not in the table before. */
  inserted(entry: PointEntry): void {
    if (this.tracking) this.added.push(entry);
  }

  removed(): void {
    if (this.tracking) this.removedCount++;
  }

  /** The id-sorted list; entries may be stale: resolve each with `current` and skip those it gives nothing for. */
  async list(): Promise<readonly PointEntry[]> {
    for (let refresh = 0; refresh < MAX_REFRESHES && this.needsRefresh(); refresh++) {
      this.refreshing ??= this.refresh().finally(() => {
        this.refreshing = undefined;
      });
      await this.refreshing;
    }
    return this.sorted ?? [];
  }

  private needsRefresh(): boolean {
    return this.sorted === null || this.added.length > 0 || this.removedCount > this.sorted.length / 4;
  }

  private async refresh(): Promise<void> {
    if (this.sorted === null) {
      this.tracking = true;
      this.added = [];
      this.removedCount = 0;
      this.sorted = await sortInSlices([...this.all()], compareEntries);
      return;
    }
    const additions = this.added;
    this.added = [];
    this.removedCount = 0;
    // A new id still held by that very point (not removed again, nor rewritten since).
    const fresh = new Set(additions.filter((entry) => this.current(entry.key) === entry));
    const kept: PointEntry[] = [];
    const old = this.sorted;
    for (let i = 0; i < old.length; i++) {
      if (i % CHECK_EVERY === 0) await pauseIfDue();
      const now = this.current((old[i] as PointEntry).key);
      // An id removed and inserted again comes back through `fresh`.
      if (now !== undefined && !fresh.has(now)) kept.push(now);
    }
    const sortedFresh = await sortInSlices([...fresh], compareEntries);
    this.sorted = await mergeInSlices(kept, sortedFresh, compareEntries);
  }
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
