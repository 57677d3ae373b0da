/**
 * @module The message ids st-qdrant-memory already stored in a collection: its points have no `source`, and
 * their `messageIds` are the ids "index chats" gives (the ones the sillytavern importer derives).
 */
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
      const messageIds = point.payload.messageIds;
      // Split exactly, as the extension's recall does: a substring match would take `X_1_1` for `X_1_10`.
      if (typeof messageIds === 'string') for (const id of messageIds.split(',')) ids.add(id.trim());
    }
    offset = page.nextOffset;
  } while (offset !== undefined);
  return ids;
}
