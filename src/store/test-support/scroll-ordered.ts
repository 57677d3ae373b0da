/**
 * @module The in-memory store's TimelineStore: an `order_by` scroll over held points as Qdrant answers one
 * (points without a number at the key left out, `startFrom` inclusive, ties in id order), so in-process
 * tests reach the viewer's timeline through the same store type as production.
 */
import type { StoredRecord } from '../point-store.js';
import type { OrderedRecord, OrderedScrollOptions } from '../timeline-store.js';

/** The first number at `key` (a list holds several; Qdrant orders by one of them). */
function readOrderValue(payload: Record<string, unknown>, key: string): number | undefined {
  const value = payload[key];
  const first = Array.isArray(value) ? value.find((v) => typeof v === 'number') : value;
  return typeof first === 'number' && Number.isFinite(first) ? first : undefined;
}

/** `records` (in id order, already filtered) as one ordered scroll page. */
export function scrollOrdered(
  records: readonly StoredRecord[],
  options: OrderedScrollOptions,
): OrderedRecord[] {
  const { key, direction, startFrom } = options;
  const sign = direction === 'asc' ? 1 : -1;
  const ordered: OrderedRecord[] = [];
  for (const record of records) {
    const orderValue = readOrderValue(record.payload, key);
    if (orderValue === undefined) continue;
    if (startFrom !== undefined && sign * (orderValue - startFrom) < 0) continue;
    ordered.push({ ...record, orderValue });
  }
  // A stable sort keeps id order among equal values.
  ordered.sort((a, b) => sign * (a.orderValue - b.orderValue));
  return ordered.slice(0, options.limit);
}
