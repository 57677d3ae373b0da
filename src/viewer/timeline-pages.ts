/**
 * @module One timeline page: dated points newest first, then the undated ones, read in steps from a
 * position. Newer timestamps come from the store's `order_by` scroll; a timestamp shared by more points than
 * fit comes from the plain scroll (by id, with its offset), so the next position is always one timestamp and
 * one id. Without the timestamp index (a collection SillyTavern just recreated) every point comes in storage
 * order instead: a read never builds an index.
 */
import { StoreError, ValidationError } from '../errors/memory-pool-error.js';
import type { PointStore, StoredPointId, StoredRecord, StoreFilter } from '../store/point-store.js';
import { allOf, noneOf } from '../store/store-filters.js';
import { TIMELINE_KEY } from '../store/timeline-index.js';
import type { OrderedRecord, TimelineStore } from '../store/timeline-store.js';
import type { TimelinePosition } from './timeline-cursor.js';
import { DATED, type TimelineFilter, timestampBelow, timestampIs, toStoreFilter } from './timeline-filter.js';

export type TimelineStoreReads = Pick<PointStore, 'scrollPoints'> & Pick<TimelineStore, 'scrollOrdered'>;

export interface TimelinePage {
  readonly records: StoredRecord[];
  /** Where the next page starts; undefined after the last. */
  readonly next: TimelinePosition | undefined;
  /** `storage` when the collection has no timestamp index to order by. */
  readonly order: 'newest-first' | 'storage';
}

/** What one step read, and where the timeline goes on (`sure`: at least one point is there). */
interface Step {
  readonly records: StoredRecord[];
  readonly next: TimelinePosition | undefined;
  readonly sure: boolean;
}

const isMissingIndex = (error: unknown) => String((error as Error)?.message).includes('No range index');
const isMissingCollection = (error: unknown) =>
  error instanceof StoreError && error.code === 'collection_missing';

export async function readTimelinePage(
  store: TimelineStoreReads,
  collection: string,
  filter: TimelineFilter,
  limit: number,
  from: TimelinePosition | undefined,
): Promise<TimelinePage> {
  /** Undated points are the last phase, unless the filter leaves them out (a day range, `undated=exclude`). */
  const undatedPhase = (): TimelinePosition | undefined =>
    filter.undated === 'exclude' || filter.fromMs !== undefined || filter.toMs !== undefined
      ? undefined
      : { phase: 'undated' };

  const byId = async (
    position: Extract<TimelinePosition, { offset?: unknown }>,
    need: number,
    narrowing: StoreFilter | undefined,
    after: TimelinePosition | undefined,
  ): Promise<Step> => {
    const storeFilter = toStoreFilter(filter, narrowing);
    const page = await store.scrollPoints(collection, {
      limit: need,
      ...(storeFilter === undefined ? {} : { filter: storeFilter }),
      ...(position.offset === undefined ? {} : { offset: position.offset }),
    });
    if (page.nextOffset === undefined) return { records: page.points, next: after, sure: false };
    return { records: page.points, next: { ...position, offset: page.nextOffset }, sure: true };
  };

  const step = async (position: TimelinePosition, need: number): Promise<Step> => {
    switch (position.phase) {
      case 'tie':
        return byId(position, need, allOf(timestampIs(position.timestamp)), {
          phase: 'older',
          timestamp: position.timestamp,
        });
      case 'undated':
        return byId(position, need, noneOf(DATED), undefined);
      case 'storage':
        return byId(position, need, undefined, undefined);
      case 'older': {
        const bound = position.timestamp;
        const storeFilter = toStoreFilter(
          filter,
          bound === undefined ? undefined : allOf(timestampBelow(bound)),
        );
        // One more than needed tells whether the last timestamp taken goes on past this page.
        const rows = await store.scrollOrdered(collection, {
          key: TIMELINE_KEY,
          direction: 'desc',
          limit: need + 1,
          ...(bound === undefined ? {} : { startFrom: bound }),
          ...(storeFilter === undefined ? {} : { filter: storeFilter }),
        });
        if (rows.length <= need) return { records: tiesById(rows), next: undatedPhase(), sure: false };
        const last = rows[need - 1]!.orderValue;
        if (rows[need]!.orderValue < last) {
          return {
            records: tiesById(rows.slice(0, need)),
            next: { phase: 'older', timestamp: last },
            sure: true,
          };
        }
        // The last timestamp goes on: take the newer ones, and read that timestamp's points by id.
        const newer = rows.slice(0, need).filter((row) => row.orderValue > last);
        return { records: tiesById(newer), next: { phase: 'tie', timestamp: last }, sure: true };
      }
    }
  };

  const walk = async (start: TimelinePosition): Promise<Omit<TimelinePage, 'order'>> => {
    const records: StoredRecord[] = [];
    let position: TimelinePosition | undefined = start;
    let sure = false;
    while (position !== undefined && records.length < limit) {
      const read = await step(position, limit - records.length);
      records.push(...read.records);
      position = read.next;
      sure = read.sure;
    }
    // A full page: look ahead only when the last step could not tell whether anything follows.
    while (position !== undefined && !sure) {
      const read = await step(position, 1);
      if (read.records.length > 0 || read.sure) break;
      position = read.next;
    }
    return { records: dropRepeats(records), next: position };
  };

  const start = from ?? (filter.undated === 'only' ? { phase: 'undated' } : { phase: 'older' });
  try {
    return { ...(await walk(start)), order: start.phase === 'storage' ? 'storage' : 'newest-first' };
  } catch (error) {
    // A bot whose collection does not exist yet (or was just deleted) has no memories.
    if (isMissingCollection(error)) return { records: [], next: undefined, order: 'newest-first' };
    if (!isMissingIndex(error) || start.phase === 'storage') throw error;
    if (from !== undefined) {
      throw new ValidationError(
        'cursor',
        'cursor: the collection lost its timestamp index since this cursor was given out; start again without one',
      );
    }
    return { ...(await walk({ phase: 'storage' })), order: 'storage' };
  }
}

/**
 * Equal timestamps in id order, as the plain scroll gives a tie cut by a page's end: a tie reads the same
 * whether a page holds it whole or not (Qdrant leaves the order of ties to `order_by` unspecified).
 */
function tiesById(rows: readonly OrderedRecord[]): OrderedRecord[] {
  return [...rows].sort((a, b) => b.orderValue - a.orderValue || compareIds(a.id, b.id));
}

/** Qdrant's id order: integers first, by value, then UUIDs by their hex digits. */
function compareIds(a: StoredPointId, b: StoredPointId): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'number') return -1;
  if (typeof b === 'number') return 1;
  const hex = (id: string) => id.replaceAll('-', '').toLowerCase();
  return hex(a) < hex(b) ? -1 : hex(a) > hex(b) ? 1 : 0;
}

/** A point with several timestamps is listed once per value, as Qdrant orders it: a page shows it once. */
function dropRepeats(records: readonly StoredRecord[]): StoredRecord[] {
  const seen = new Set<string>();
  return records.filter((record) => {
    const key = `${typeof record.id}:${record.id}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
