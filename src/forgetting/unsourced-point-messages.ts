/** @module The message ids SillyTavern's points hold, read before a forget of those points tombstones them. */
import { readHeldMessageIds } from '../chunking/held-message-ids.js';
import type { PointStore, StoredPointId } from '../store/point-store.js';
import { unsourcedPointsAmong } from '../store/store-filters.js';

/** SillyTavern's points among the ids asked for, and the messages they hold. */
export interface UnsourcedPointMessages {
  /** The ids that are SillyTavern's points (others, and ids not in the collection, are left out). */
  readonly pointIds: readonly StoredPointId[];
  /** The distinct message ids those points hold (st-qdrant-memory's comma-joined `messageIds`). */
  readonly messageIds: readonly string[];
  /** The messages each point holds, summed: what a forget of the points counts as forgotten. */
  readonly messageCount: number;
}

/** Reads the points of `pointIds` that have no source; none when the collection does not exist yet. */
export async function readUnsourcedPointMessages(
  store: Pick<PointStore, 'describeCollection' | 'scrollPoints'>,
  collection: string,
  pointIds: readonly StoredPointId[],
): Promise<UnsourcedPointMessages> {
  if ((await store.describeCollection(collection)) === undefined) {
    return { pointIds: [], messageIds: [], messageCount: 0 };
  }
  // At most 1000 ids (the request's limit), so one page holds them all.
  const page = await store.scrollPoints(collection, {
    filter: unsourcedPointsAmong(pointIds),
    limit: pointIds.length,
  });
  const held = page.points.map((point) => readHeldMessageIds(point.payload.messageIds));
  return {
    pointIds: page.points.map((point) => point.id),
    messageIds: [...new Set(held.flat())],
    messageCount: held.reduce((sum, ids) => sum + ids.length, 0),
  };
}
