/**
 * @module Parts collections whose collection is gone: found by `doctor`, deleted when serve starts, so the
 * text of memories someone deleted (SillyTavern's "Delete All Memories", any Qdrant client) leaves the store.
 */
import type { MessageJournal } from '../journal/message-journal.js';
import type { PointStore } from '../store/point-store.js';
import type { PartsGuard } from './parts-guard.js';

const PARTS_SUFFIX = '__parts';

/**
 * The collections whose `<collection>__parts` is still in the store while they are not (an alias counts as
 * there: the store resolves it). A collection a reembed is building is not gone: its parts are reindex's.
 */
export async function findOrphanParts(
  store: Pick<PointStore, 'listCollections' | 'describeCollection'>,
  journal: Pick<MessageJournal, 'routes'>,
): Promise<string[]> {
  const orphans: string[] = [];
  for (const name of await store.listCollections()) {
    if (!name.endsWith(PARTS_SUFFIX)) continue;
    const collection = name.slice(0, -PARTS_SUFFIX.length);
    if (collection === '' || journal.routes.isReembedTarget(collection)) continue;
    if ((await store.describeCollection(collection)) === undefined) orphans.push(collection);
  }
  return orphans;
}

/** Deletes the parts of every collection that is gone; the collections whose parts were deleted. */
export async function dropOrphanParts(
  store: Pick<PointStore, 'listCollections' | 'describeCollection'>,
  journal: Pick<MessageJournal, 'routes'>,
  guard: Pick<PartsGuard, 'dropIfCollectionGone'>,
): Promise<string[]> {
  const dropped: string[] = [];
  // The guard checks each again under its lock: a first write may have created the collection since.
  for (const collection of await findOrphanParts(store, journal)) {
    if (await guard.dropIfCollectionGone(collection)) dropped.push(collection);
  }
  return dropped;
}
