/**
 * @module The keyword payload index on `dmWith` (chunking/dm-with.ts), which a linked person's DM recall filters
 * chunks and parts by. Asked for where the service prepares collections (at start-up; before a collection's first
 * write; when a parts collection is created), never by a read. The filter works without it, only slower on a
 * large collection in Qdrant.
 */
import { DM_WITH_KEY } from '../chunking/dm-with.js';
import type { CollectionShape, PointStore } from './point-store.js';
import type { TimelineStore } from './timeline-store.js';

type IndexStore = Pick<TimelineStore, 'requestKeywordIndex'> & Pick<PointStore, 'describeCollection'>;

/** True when `shape` (a collection that exists) lacks the index. */
export const needsDmWithIndex = (shape: CollectionShape): boolean =>
  shape.payloadIndexes?.[DM_WITH_KEY] !== 'keyword';

/**
 * Asks for the index on `collection` when it exists and lacks it. `shape` is the collection's shape when the
 * caller has read it already; without it the collection is described here (a collection that does not exist is
 * left alone: it gets the index when it is created).
 */
export async function prepareDmWithIndex(
  store: IndexStore,
  collection: string,
  shape?: CollectionShape,
): Promise<void> {
  const current = shape ?? (await store.describeCollection(collection));
  if (current !== undefined && needsDmWithIndex(current))
    await store.requestKeywordIndex(collection, DM_WITH_KEY);
}

/**
 * For every path that creates or first writes a collection (serve, import, reindex, reembed's sync, restore): the
 * collection guard's `prepare` and the parts guard's `afterCreate` (`shape` absent there). A failure goes to
 * `onError`: it costs DM recall its index, not the write.
 */
export const prepareDmWithIndexBeforeWrites =
  (store: IndexStore, onError: (collection: string, error: unknown) => void) =>
  (collection: string, shape?: CollectionShape): Promise<void> =>
    prepareDmWithIndex(store, collection, shape).catch((error: unknown) => onError(collection, error));

/** At start-up: the index on each of `collections` that exists and lacks it. Failures go to `onError`. */
export async function prepareDmWithIndexes(
  store: IndexStore,
  collections: Iterable<string>,
  onError: (collection: string, error: unknown) => void,
): Promise<void> {
  for (const collection of new Set(collections)) {
    await prepareDmWithIndex(store, collection).catch((error: unknown) => onError(collection, error));
  }
}
