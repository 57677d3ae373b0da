/**
 * @module Parts whose chunk is gone from a collection that still exists: another client deleted the collection
 * and created it again (st-qdrant-memory's next save after "Delete All Memories") before memory-pool saw it
 * missing. The journal still says those chunks are stored; their parts hold the deleted text. Serve deletes
 * them when it starts.
 */
import type { Journal } from '../journal/journal.js';
import type { HybridPointStore } from '../store/hybrid-point-store.js';
import type { PointStore } from '../store/point-store.js';
import { allOf, matchAny } from '../store/store-filters.js';
import { partsCollectionName } from './parts-collection-name.js';
import { hasPartsShape, ownsParts } from './parts-ownership.js';

const PAGE = 256;

/**
 * Deletes the parts of `collection` whose chunk the journal marks stored there but the collection does not
 * hold; resolves with how many chunks' parts went. A chunk not marked stored is left alone: its parts are
 * written before its point (a write under way), or it waits for a retry.
 */
export async function dropStaleParts(
  store: Pick<PointStore, 'scrollPoints' | 'deletePoints'> & Pick<HybridPointStore, 'retrievePoints'>,
  journal: Pick<Journal, 'chunks' | 'partsIndexes'>,
  collection: string,
): Promise<number> {
  const parts = partsCollectionName(collection);
  const chunkIds = new Set<string>();
  let offset: string | number | undefined;
  do {
    // Only the chunk ids: at 100,000 chunks this walks ~900,000 parts after each start, beside recall.
    const page = await store.scrollPoints(parts, {
      limit: PAGE,
      withPayload: ['chunkId'],
      ...(offset === undefined ? {} : { offset }),
    });
    for (const part of page.points) {
      if (typeof part.payload.chunkId === 'string') chunkIds.add(part.payload.chunkId);
    }
    offset = page.nextOffset;
  } while (offset !== undefined);
  return dropStalePartsOf(store, journal, collection, [...chunkIds]);
}

/**
 * dropStaleParts for the given chunks only: hybrid recall found them missing from the collection. The journal
 * is read before the store, so a chunk stored since the recall's read is seen there and keeps its parts.
 */
export async function dropStalePartsOf(
  store: Pick<PointStore, 'deletePoints'> & Pick<HybridPointStore, 'retrievePoints'>,
  journal: Pick<Journal, 'chunks' | 'partsIndexes'>,
  collection: string,
  chunkIds: readonly string[],
): Promise<number> {
  const parts = partsCollectionName(collection);
  let dropped = 0;
  for (let start = 0; start < chunkIds.length; start += PAGE) {
    const stored = (await journal.chunks.storedAmong(chunkIds.slice(start, start + PAGE))).filter(
      (chunk) => chunk.collection === collection,
    );
    if (stored.length === 0) continue;
    const held = new Set(
      (
        await store.retrievePoints(
          collection,
          stored.map((c) => c.chunkId),
        )
      ).map((p) => String(p.id)),
    );
    const gone = stored.filter((chunk) => !held.has(chunk.chunkId));
    if (gone.length === 0) continue;
    await store.deletePoints(parts, {
      filter: allOf(
        matchAny(
          'chunkId',
          gone.map((c) => c.chunkId),
        ),
      ),
    });
    dropped += gone.length;
    // An edit rewriting one of them meanwhile may have written fresh parts just deleted: recall stays
    // chunk-only for this collection until a reindex, rather than trust an index that may lack them.
    const still = new Map(
      (await journal.chunks.storedAmong(gone.map((c) => c.chunkId))).map((c) => [c.chunkId, c.revision]),
    );
    if (gone.some((chunk) => still.get(chunk.chunkId) !== chunk.revision)) {
      await journal.partsIndexes.forget(collection);
      await journal.partsIndexes.recordStarted(collection, false, Date.now());
    }
  }
  return dropped;
}

/** dropStaleParts for each collection that exists with parts memory-pool owns; the collections cleaned. */
export async function dropAllStaleParts(
  store: PointStore & HybridPointStore,
  journal: Pick<Journal, 'chunks' | 'partsIndexes' | 'routes' | 'collectionModel'>,
  collections: Iterable<string>,
): Promise<string[]> {
  const cleaned: string[] = [];
  for (const collection of new Set(collections)) {
    const parts = await store.describeCollection(partsCollectionName(collection));
    if (!(await ownsParts(journal, collection, hasPartsShape(parts)))) continue;
    if ((await store.describeCollection(collection)) === undefined) continue;
    if ((await dropStaleParts(store, journal, collection)) > 0) cleaned.push(collection);
  }
  return cleaned;
}
