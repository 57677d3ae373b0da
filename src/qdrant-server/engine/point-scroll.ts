/** @module `POST /points/scroll`: id-ordered pages with an inclusive offset, or `order_by` over a range index (qdrant-subset.md §3). */
import { parseDateTime } from '../filter/index.js';
import { badInput } from '../qdrant-error.js';
import type { OrderBy, ScrollPage, ScrollRequest } from './engine-api.js';
import type { CollectionReader } from './collection-reader.js';
import { indexedValues, isIndexable } from './collection-info.js';
import { type PointEntry, compareEntries } from './point-table.js';

const RANGE_TYPES = new Set(['integer', 'float', 'datetime']);

/** Runs a scroll request. */
export function scrollPoints(reader: CollectionReader, request: ScrollRequest): ScrollPage {
  if (request.orderBy !== undefined) return scrollOrdered(reader, request, request.orderBy);
  const test = reader.predicate(request.filter);
  const ordered = reader.table.ordered();
  const start = request.offset === undefined ? 0 : reader.table.lowerBound(request.offset);
  const page: PointEntry[] = [];
  // Fetch one more than asked: its id becomes next_page_offset.
  for (let i = start; i < ordered.length && page.length <= request.limit; i++) {
    const entry = ordered[i] as PointEntry;
    if (test === undefined || test(entry)) page.push(entry);
  }
  const next = page.length > request.limit ? (page.pop() as PointEntry).id : null;
  return { points: page.map((entry) => reader.record(entry, request)), nextPageOffset: next };
}

/** One point at one of its values of the `order_by` key. */
export interface OrderedValue {
  readonly entry: PointEntry;
  readonly value: number;
}

function scrollOrdered(reader: CollectionReader, request: ScrollRequest, orderBy: OrderBy): ScrollPage {
  checkRangeIndex(reader, orderBy);
  if (request.offset !== undefined) {
    throw badInput(
      "Cannot use an `offset` when using `order_by`. The alternative for paging is to use `order_by.start_from` and a filter to exclude the IDs that you've already seen for the `order_by.start_from` value",
    );
  }
  const points = orderByField(reader, orderBy, reader.predicate(request.filter), request.limit).map(
    ({ entry, value }) => ({ ...reader.record(entry, request), order_value: value }),
  );
  return { points, nextPageOffset: null };
}

/** 400 unless `order_by.key` has a range-capable index (integer, float, datetime). */
export function checkRangeIndex(reader: CollectionReader, orderBy: OrderBy): void {
  const schema = reader.indexes.get(orderBy.key);
  if (schema === undefined || !RANGE_TYPES.has(schema.type)) {
    throw badInput(
      `No range index for \`order_by\` key: \`${orderBy.key}\`. Please create one to use \`order_by\`. Check https://qdrant.tech/documentation/concepts/indexing/#payload-index to see which payload schemas support Range conditions`,
    );
  }
}

/**
 * The first `limit` (point, value) pairs passing `test`, ordered by the indexed value then id in the chosen
 * direction; shared by scroll and the query API's `order_by`. Call checkRangeIndex first.
 */
export function orderByField(
  reader: CollectionReader,
  orderBy: OrderBy,
  test: ((entry: PointEntry) => boolean) | undefined,
  limit: number,
): OrderedValue[] {
  const type = reader.indexes.get(orderBy.key)?.type ?? 'float';
  const datetime = type === 'datetime';
  const start = toOrderValue(orderBy.startFrom);
  const ascending = orderBy.direction === 'asc';
  const sign = ascending ? 1 : -1;
  const order = (a: OrderedValue, b: OrderedValue) =>
    sign * (a.value - b.value || compareEntries(a.entry, b.entry));
  const kept = limit <= BOUNDED_LIMIT ? new SortedFirst(limit, order) : undefined;
  const values: OrderedValue[] = [];
  for (const entry of reader.table.values()) {
    if (test !== undefined && !test(entry)) continue;
    // A point with several values appears once per value, as in Qdrant.
    for (const raw of indexedValues(entry.payload, orderBy.key)) {
      if (!isIndexable(type, raw)) continue;
      const value = datetime ? (parseDateTime(raw as string) as number) : (raw as number);
      if (start !== undefined && (ascending ? value < start : value > start)) continue;
      if (kept) kept.offer({ entry, value });
      else values.push({ entry, value });
    }
  }
  if (kept) return kept.items;
  values.sort(order);
  return values.slice(0, limit);
}

/** Up to this limit the first values are kept as they come (a page of a timeline); above it, all are sorted. */
const BOUNDED_LIMIT = 1024;

/** The first `capacity` items by `order`, kept sorted while offered: a page costs a pass, not a sort of all. */
class SortedFirst<T> {
  readonly items: T[] = [];
  constructor(
    private readonly capacity: number,
    private readonly order: (a: T, b: T) => number,
  ) {}

  offer(item: T): void {
    const { items, order } = this;
    if (this.capacity === 0) return;
    if (items.length === this.capacity && order(item, items[items.length - 1] as T) >= 0) return;
    let low = 0;
    let high = items.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (order(items[middle] as T, item) <= 0) low = middle + 1;
      else high = middle;
    }
    items.splice(low, 0, item);
    if (items.length > this.capacity) items.pop();
  }
}

/** `start_from` as a comparable number: a datetime string becomes epoch microseconds, like datetime index values. */
function toOrderValue(start: number | string | undefined): number | undefined {
  if (start === undefined) return undefined;
  if (typeof start === 'number') return start;
  const parsed = parseDateTime(start);
  if (parsed === undefined) {
    throw badInput(
      `'${start}' does not match accepted datetime format (RFC3339). Example: 2014-01-01T00:00:00Z`,
    );
  }
  return parsed;
}
