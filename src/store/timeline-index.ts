/**
 * @module The payload indexes the service reads by: a float index on `timestamp`, which the memory viewer's
 * timeline orders by (Qdrant's `order_by` needs one), and a keyword index on `source`, which recall's search
 * for SillyTavern's chunks (`is_empty: source`) reads instead of testing every chunk (issue 36). They are
 * asked for where the service prepares collections (at start-up, and when the collection guard first checks
 * a collection it writes to), never by a read.
 */
import type { CollectionShape } from './point-store.js';
import { SOURCE_KEY } from './store-filters.js';
import type { TimelineStore } from './timeline-store.js';

/** What asking for the indexes needs of the store. */
export type IndexingStore = Pick<TimelineStore, 'requestFloatIndex' | 'requestKeywordIndex'>;

/** The payload key the timeline orders by (Unix ms, as format.md writes it). */
export const TIMELINE_KEY = 'timestamp';

/**
 * Float, not integer: a float index holds every number, so the points the timeline orders are exactly the
 * points a range condition on `timestamp` matches, and the rest (no number there) are its undated ones.
 */
const INDEX_TYPE = 'float';

/** True when `shape` (undefined: a collection about to be created) lacks the timeline's index. */
export const needsTimelineIndex = (shape: CollectionShape | undefined): boolean =>
  shape?.payloadIndexes?.[TIMELINE_KEY] !== INDEX_TYPE;

/** True when `shape` (undefined: a collection about to be created) lacks the keyword index on `source`. */
const needsSourceIndex = (shape: CollectionShape | undefined): boolean =>
  shape?.payloadIndexes?.[SOURCE_KEY] !== 'keyword';

/** Asks the store for the indexes on `collection` that `shape` shows missing. */
export async function prepareTimelineIndex(
  store: IndexingStore,
  collection: string,
  shape: CollectionShape | undefined,
): Promise<void> {
  if (needsTimelineIndex(shape)) await store.requestFloatIndex(collection, TIMELINE_KEY);
  if (needsSourceIndex(shape)) await store.requestKeywordIndex(collection, SOURCE_KEY);
}

/**
 * The collection guard's `prepare` for every path that writes points (serve, import, reembed): asks for the
 * index before a collection's first write. A failure goes to `onError`: it costs the timeline its order, not
 * the write.
 */
export const prepareTimelineIndexBeforeWrites =
  (
    store: IndexingStore,
    onError: (collection: string, error: unknown) => void,
  ) =>
  (collection: string, shape: CollectionShape | undefined): Promise<void> =>
    prepareTimelineIndex(store, collection, shape).catch((error: unknown) => onError(collection, error));

/**
 * At start-up: asks for the index on each existing collection that lacks it (a missing collection gets it
 * from the guard when first written). Failures go to `onError`; they cost the timeline its order, not a start.
 */
export async function prepareTimelineIndexes(
  store: IndexingStore & {
    describeCollection(name: string): Promise<CollectionShape | undefined>;
  },
  collections: Iterable<string>,
  onError: (collection: string, error: unknown) => void,
): Promise<void> {
  for (const collection of new Set(collections)) {
    try {
      const shape = await store.describeCollection(collection);
      if (shape !== undefined) await prepareTimelineIndex(store, collection, shape);
    } catch (error) {
      onError(collection, error);
    }
  }
}
