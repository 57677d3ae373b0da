/**
 * @module The store filter a precise window adds to recall: a range on `timestamp` (Unix ms of a chunk's,
 * or a part's, oldest message), so the store (a Qdrant cluster too) drops memories outside the window.
 */
import type { StoreFilter } from '../../store/point-store.js';
import { allOf, inRange } from '../../store/store-filters.js';
import type { TimeWindow } from './time-window.js';

/** Points dated inside a precise `window`; undefined (no narrowing) for none or a vague one. */
export function timeFilter(window: TimeWindow | undefined): StoreFilter | undefined {
  if (window === undefined || !window.precise) return undefined;
  return allOf(inRange('timestamp', { gte: window.from, lt: window.to }));
}
