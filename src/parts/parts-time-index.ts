/**
 * @module The float payload index on the parts' `timestamp`. Recall within a precise window ("last weekend")
 * filters the parts by a range on it: a thin filter that the embedded store answers from the index (its
 * range-candidates.ts), as Qdrant plans a filter by its payload indexes, instead of testing every part
 * (~900,000 at 100,000 chunks). Asked for at start-up and when a parts collection is created, never by a read.
 */
import type { PointStore } from '../store/point-store.js';
import { needsTimelineIndex, TIMELINE_KEY } from '../store/timeline-index.js';
import type { TimelineStore } from '../store/timeline-store.js';

type IndexStore = Pick<TimelineStore, 'requestFloatIndex'> & Pick<PointStore, 'describeCollection'>;

/** Asks for the index on the parts collection `parts` when it exists and lacks it. */
export async function preparePartsTimeIndex(store: IndexStore, parts: string): Promise<void> {
  const shape = await store.describeCollection(parts);
  if (shape !== undefined && needsTimelineIndex(shape)) await store.requestFloatIndex(parts, TIMELINE_KEY);
}
