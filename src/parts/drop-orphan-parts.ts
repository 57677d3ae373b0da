/**
 * @module Parts collections whose collection is gone: found by `doctor`, deleted when serve starts, so the
 * text of memories someone deleted (SillyTavern's "Delete All Memories", any Qdrant client) leaves the store.
 * Only parts memory-pool recorded as its own are touched (see parts-ownership.ts).
 */
import type { Journal } from '../journal/journal.js';
import type { PointStore } from '../store/point-store.js';
import type { PartsGuard } from './parts-guard.js';
import { hasPartsShape, isPartsName, ownsParts, PARTS_SUFFIX } from './parts-ownership.js';

/** Collections whose `__parts` outlive them: memory-pool's own, and those it does not recognise as its own. */
export interface OrphanParts {
  /** Collections whose parts memory-pool recorded as its own. */
  readonly owned: string[];
  /** Parts collection names (`x__parts`) memory-pool never recorded: another app's or a bot's, left alone. */
  readonly unknown: string[];
}

/**
 * The collections whose `<collection>__parts` is still in the store while they are not (an alias counts as
 * there: the store resolves it). A collection a reembed is building is not gone: its parts are reindex's.
 * `keep` holds the bots' collections: never parts, whatever their name.
 */
export async function findOrphanParts(
  store: Pick<PointStore, 'listCollections' | 'describeCollection'>,
  journal: Pick<Journal, 'routes' | 'partsIndexes' | 'collectionModel'>,
  keep: Iterable<string> = [],
): Promise<OrphanParts> {
  const kept = new Set(keep);
  const found: OrphanParts = { owned: [], unknown: [] };
  for (const name of await store.listCollections()) {
    if (!isPartsName(name) || kept.has(name)) continue;
    const collection = name.slice(0, -PARTS_SUFFIX.length);
    if (collection === '' || (await journal.routes.isReembedTarget(collection))) continue;
    if ((await store.describeCollection(collection)) !== undefined) continue;
    if (await ownsParts(journal, collection, hasPartsShape(await store.describeCollection(name)), kept))
      found.owned.push(collection);
    else found.unknown.push(name);
  }
  return found;
}

/** Deletes the parts of every collection that is gone; the collections whose parts were deleted. */
export async function dropOrphanParts(
  store: Pick<PointStore, 'listCollections' | 'describeCollection'>,
  journal: Pick<Journal, 'routes' | 'partsIndexes' | 'collectionModel'>,
  guard: Pick<PartsGuard, 'dropIfCollectionGone'>,
  keep: Iterable<string> = [],
): Promise<string[]> {
  const dropped: string[] = [];
  // The guard checks each again under its lock: a first write may have created the collection since.
  for (const collection of (await findOrphanParts(store, journal, keep)).owned) {
    if (await guard.dropIfCollectionGone(collection)) dropped.push(collection);
  }
  return dropped;
}
