/**
 * @module The payload indexes the service asks for on the collections it writes, from one description of each:
 * on a chunks collection the timeline's (`timestamp`, float) and `source`'s (keyword), on a parts collection
 * `timestamp` (float: recall within a precise window filters the parts by a range on it, which the embedded store
 * then answers from the index instead of testing every part), on chunks and parts alike `dmWith`'s (keyword). Asked for at start-up and before a collection's first write by every path that writes
 * (serve, import, reindex, reembed, restore), never by a read.
 */
import { DM_WITH_KEY } from '../chunking/dm-with.js';
import type { Logger } from '../logging/logger.js';
import type { CollectionShape, PointStore } from './point-store.js';
import { SOURCE_KEY } from './store-filters.js';
import { TIMELINE_INDEX_TYPE, TIMELINE_KEY } from './timeline-index.js';
import type { TimelineStore } from './timeline-store.js';

/** What asking for the indexes needs of the store. */
export type IndexingStore = Pick<TimelineStore, 'requestFloatIndex' | 'requestKeywordIndex'> &
  Pick<PointStore, 'describeCollection'>;

/**
 * A family of indexes, failing as one: `timeline` (timestamp, then source: the viewer's order and recall's search
 * for SillyTavern's chunks), `time` (timestamp alone: the parts' time windows), `dmWith` (a linked person's DM
 * recall). A failure costs the family its index, never a write or a start.
 */
export type IndexFamily = 'timeline' | 'time' | 'dmWith';

/** A chunks collection (a bot's): every family. */
export const CHUNKS_INDEXES: readonly IndexFamily[] = ['timeline', 'dmWith'];
/** A parts collection: its `timestamp` and `dmWith`. */
export const PARTS_INDEXES: readonly IndexFamily[] = ['time', 'dmWith'];

/** Told each family it could not ask for on `collection` (once per family). */
export type IndexFailed = (family: IndexFamily, collection: string, error: unknown) => void;

/** True when `shape` (undefined: a collection just created, which has none) lacks a `type` index on `key`. */
export const lacksPayloadIndex = (shape: CollectionShape | undefined, key: string, type: string): boolean =>
  shape?.payloadIndexes?.[key] !== type;

/**
 * Asks for the `families` indexes `shape` shows missing on `collection`; `shape` undefined means the collection was
 * just created (it has none), so it is not described again.
 */
export async function prepareServiceIndexes(
  store: IndexingStore,
  collection: string,
  shape: CollectionShape | undefined,
  families: readonly IndexFamily[],
  onError: IndexFailed,
): Promise<void> {
  const ask = (family: IndexFamily, request: () => Promise<void>) =>
    families.includes(family)
      ? request().catch((error: unknown) => onError(family, collection, error))
      : undefined;
  await ask('timeline', async () => {
    if (lacksPayloadIndex(shape, TIMELINE_KEY, TIMELINE_INDEX_TYPE))
      await store.requestFloatIndex(collection, TIMELINE_KEY);
    if (lacksPayloadIndex(shape, SOURCE_KEY, 'keyword'))
      await store.requestKeywordIndex(collection, SOURCE_KEY);
  });
  await ask('time', async () => {
    if (lacksPayloadIndex(shape, TIMELINE_KEY, TIMELINE_INDEX_TYPE))
      await store.requestFloatIndex(collection, TIMELINE_KEY);
  });
  await ask('dmWith', async () => {
    if (lacksPayloadIndex(shape, DM_WITH_KEY, 'keyword'))
      await store.requestKeywordIndex(collection, DM_WITH_KEY);
  });
}

/**
 * The collection guard's `prepare` (shape as it read it) and the parts guard's `afterCreate` (no shape: just
 * created), for every path that writes.
 */
export const prepareServiceIndexesBeforeWrites =
  (store: IndexingStore, families: readonly IndexFamily[], onError: IndexFailed) =>
  (collection: string, shape?: CollectionShape): Promise<void> =>
    prepareServiceIndexes(store, collection, shape, families, onError);

/**
 * At start-up: describes each collection once and asks for what it lacks; a collection that does not exist is left
 * alone (the guards index it when they create it). A failed description is each family's failure.
 */
export async function prepareServiceIndexesAtStart(
  store: IndexingStore,
  collections: ReadonlyMap<string, readonly IndexFamily[]>,
  onError: IndexFailed,
): Promise<void> {
  for (const [collection, families] of collections) {
    let shape: CollectionShape | undefined;
    try {
      shape = await store.describeCollection(collection);
    } catch (error) {
      for (const family of families) onError(family, collection, error);
      continue;
    }
    if (shape !== undefined) await prepareServiceIndexes(store, collection, shape, families, onError);
  }
}

/** What serve and import log for a failure: the index is missing, the service runs on. */
export const logIndexFailure =
  (logger: Pick<Logger, 'warn'>): IndexFailed =>
  (family, collection, error) =>
    logger.warn(
      { collection, err: error },
      family === 'timeline'
        ? 'could not ask the store for its payload indexes (timestamp, source)'
        : 'could not ask the store for the keyword index on dmWith',
    );
