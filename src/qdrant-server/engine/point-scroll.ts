/**
 * @module `POST /points/scroll`: id-ordered pages with an inclusive offset, or `order_by` over a range index
 * (qdrant-subset.md §3). Both walk up to the whole collection, so they run in time slices (time-slicer.ts);
 * a point removed or rewritten while a page is gathered is left out of `order_by`, and read as it is now by
 * the id order.
 */
import { parseDateTime } from '../filter/index.js';
import { badInput } from '../qdrant-error.js';
import type { OrderBy, PointRecord, ScrollPage, ScrollRequest } from './engine-api.js';
import type { CollectionReader } from './collection-reader.js';
import { indexedValues, isIndexable } from './collection-info.js';
import { lowerBound } from './id-order.js';
import { type PointEntry, compareEntries } from './point-table.js';
import { sortInSlices } from './sliced-sort.js';
import { CHECK_EVERY, mapInSlices, pauseIfDue } from './time-slicer.js';

const RANGE_TYPES = new Set(['integer', 'float', 'datetime']);

/** Runs a scroll request. */
export async function scrollPoints(reader: CollectionReader, request: ScrollRequest): Promise<ScrollPage> {
  if (request.orderBy !== undefined) return scrollOrdered(reader, request, request.orderBy);
  const test = reader.predicate(request.filter);
  const page = await listById(reader, test, request.limit + 1, request.offset);
  // Fetched one more than asked: its id becomes next_page_offset.
  const next = page.length > request.limit ? (page.pop() as PointEntry).id : null;
  const points = await mapInSlices(page, (entry) => reader.record(entry, request));
  return { points, nextPageOffset: next };
}

/** Up to `limit` points passing `test` in ascending id order, from the first id >= `from`; shared with query. */
export async function listById(
  reader: CollectionReader,
  test: ((entry: PointEntry) => boolean) | undefined,
  limit: number,
  from?: ScrollRequest['offset'],
): Promise<PointEntry[]> {
  const { table } = reader;
  const ordered = await table.idOrder.list();
  const page: PointEntry[] = [];
  for (let i = from === undefined ? 0 : lowerBound(ordered, from); i < ordered.length; i++) {
    if (page.length >= limit) break;
    if (i % CHECK_EVERY === 0) await pauseIfDue();
    const entry = table.getByKey((ordered[i] as PointEntry).key);
    if (entry !== undefined && (test === undefined || test(entry))) page.push(entry);
  }
  return page;
}

/** One point at one of its values of the `order_by` key. */
export interface OrderedValue {
  readonly entry: PointEntry;
  readonly value: number;
}

async function scrollOrdered(
  reader: CollectionReader,
  request: ScrollRequest,
  orderBy: OrderBy,
): Promise<ScrollPage> {
  checkRangeIndex(reader, orderBy);
  if (request.offset !== undefined) {
    throw badInput(
      "Cannot use an `offset` when using `order_by`. The alternative for paging is to use `order_by.start_from` and a filter to exclude the IDs that you've already seen for the `order_by.start_from` value",
    );
  }
  const ordered = await orderByField(reader, orderBy, reader.predicate(request.filter), request.limit);
  const points = await mapInSlices(ordered, ({ entry, value }) => {
    const record: PointRecord & { order_value?: number } = reader.record(entry, request);
    record.order_value = value;
    return record;
  });
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
export async function orderByField(
  reader: CollectionReader,
  orderBy: OrderBy,
  test: ((entry: PointEntry) => boolean) | undefined,
  limit: number,
): Promise<OrderedValue[]> {
  const type = reader.indexes.get(orderBy.key)?.type ?? 'float';
  const datetime = type === 'datetime';
  const start = toOrderValue(orderBy.startFrom);
  const ascending = orderBy.direction === 'asc';
  const sign = ascending ? 1 : -1;
  const order = (a: OrderedValue, b: OrderedValue) =>
    sign * (a.value - b.value || compareEntries(a.entry, b.entry));
  const kept = limit <= BOUNDED_LIMIT ? new SortedFirst(limit, order) : undefined;
  const values: OrderedValue[] = [];
  const { table } = reader;
  // A snapshot: the table may change between slices.
  const entries = [...table.values()];
  for (let i = 0; i < entries.length; i++) {
    if (i % CHECK_EVERY === 0) await pauseIfDue();
    const entry = entries[i] as PointEntry;
    // Removed or rewritten since the snapshot: left out, as a sliced search leaves it out.
    if (table.getByKey(entry.key) !== entry) continue;
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
  const sorted = await sortInSlices(values, order);
  return sorted.length > limit ? sorted.slice(0, limit) : sorted;
}

/** Up to this limit the first values are kept as they come (a page of a timeline); above it, all are sorted. */
const BOUNDED_LIMIT = 1024;

/** The first `capacity` items by `order`, kept sorted while offered: a page costs a pass, not a sort of all. */
class SortedFirst<T> {
  readonly items: T[] = [];
  readonly #capacity: number;
  readonly #order: (a: T, b: T) => number;

  constructor(capacity: number, order: (a: T, b: T) => number) {
    this.#capacity = capacity;
    this.#order = order;
  }

  offer(item: T): void {
    const items = this.items;
    const order = this.#order;
    if (this.#capacity === 0) return;
    if (items.length === this.#capacity && order(item, items[items.length - 1] as T) >= 0) return;
    let low = 0;
    let high = items.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (order(items[middle] as T, item) <= 0) low = middle + 1;
      else high = middle;
    }
    items.splice(low, 0, item);
    if (items.length > this.#capacity) items.pop();
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
