/**
 * @module The message ids st-qdrant-memory already stored in a collection: its points have no `source`, and
 * their `messageIds` are the ids "index chats" gives (the ones the sillytavern importer derives).
 */
import { readHeldMessageIds } from '../../chunking/held-message-ids.js';
import type { PointStore, StoredPointId } from '../../store/point-store.js';
import { unsourcedPoints } from '../../store/store-filters.js';

const PAGE = 256;

/** Every message id of the collection's SillyTavern points; empty when the collection does not exist yet. */
export async function findKnownSillyTavernIds(store: PointStore, collection: string): Promise<Set<string>> {
  const ids = new Set<string>();
  if ((await store.describeCollection(collection)) === undefined) return ids;
  let offset: StoredPointId | undefined;
  do {
    const page = await store.scrollPoints(collection, {
      filter: unsourcedPoints(),
      limit: PAGE,
      ...(offset === undefined ? {} : { offset }),
    });
    for (const point of page.points) {
      for (const id of readHeldMessageIds(point.payload.messageIds)) ids.add(id);
    }
    offset = page.nextOffset;
  } while (offset !== undefined);
  return ids;
}
