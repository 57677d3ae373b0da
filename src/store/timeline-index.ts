/**
 * @module The payload index the memory viewer's timeline orders by: a float index on `timestamp` (Qdrant's
 * `order_by` needs one). It is asked for with the service's other indexes (service-indexes.ts), never by a read.
 */

/** The payload key the timeline orders by (Unix ms, as format.md writes it). */
export const TIMELINE_KEY = 'timestamp';

/**
 * Float, not integer: a float index holds every number, so the points the timeline orders are exactly the
 * points a range condition on `timestamp` matches, and the rest (no number there) are its undated ones.
 */
export const TIMELINE_INDEX_TYPE = 'float';
