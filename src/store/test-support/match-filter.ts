/**
 * @module Qdrant's filter language, as much of it as the service sends (store-filters.ts and the viewer's
 * filters), evaluated over one point in memory for the in-memory store. A condition outside that subset
 * throws instead of matching wrongly, so a test never passes on a filter the fake only pretended to apply.
 */
import type { StoreCondition, StoreFilter, StoredPointId } from '../point-store.js';

/** A point as a filter sees it. */
export interface FilterablePoint {
  readonly id: StoredPointId;
  readonly payload: Record<string, unknown>;
}

/** Whether `point` passes `filter` (undefined passes everything). */
export function matchFilter(filter: StoreFilter | undefined, point: FilterablePoint): boolean {
  if (filter === undefined) return true;
  const { must, should, must_not: mustNot } = filter as Record<string, unknown>;
  const list = (conditions: unknown): StoreCondition[] =>
    conditions === undefined || conditions === null
      ? []
      : Array.isArray(conditions)
        ? conditions
        : [conditions as StoreCondition];
  const known = new Set(['must', 'should', 'must_not']);
  const unknown = Object.keys(filter).filter((key) => !known.has(key));
  if (unknown.length > 0) throw new Error(`the in-memory store does not evaluate ${unknown.join(', ')}`);
  const shoulds = list(should);
  return (
    list(must).every((c) => matchCondition(c, point)) &&
    (shoulds.length === 0 || shoulds.some((c) => matchCondition(c, point))) &&
    !list(mustNot).some((c) => matchCondition(c, point))
  );
}

function matchCondition(condition: StoreCondition, point: FilterablePoint): boolean {
  const c = condition as Record<string, unknown>;
  if ('must' in c || 'should' in c || 'must_not' in c) return matchFilter(condition as StoreFilter, point);
  if ('has_id' in c) return (c.has_id as StoredPointId[]).some((id) => sameId(id, point.id));
  if ('is_empty' in c) return isEmptyValue(valuesAt(point.payload, (c.is_empty as { key: string }).key));
  if ('is_null' in c) return valuesAt(point.payload, (c.is_null as { key: string }).key).includes(null);
  if (typeof c.key === 'string' && c.match !== undefined) {
    return valuesAt(point.payload, c.key).some((value) =>
      matchValue(c.match as Record<string, unknown>, value),
    );
  }
  if (typeof c.key === 'string' && c.range !== undefined) {
    const range = c.range as Record<string, number | undefined>;
    return valuesAt(point.payload, c.key).some(
      (value) =>
        typeof value === 'number' &&
        (range.gt === undefined || value > range.gt) &&
        (range.gte === undefined || value >= range.gte) &&
        (range.lt === undefined || value < range.lt) &&
        (range.lte === undefined || value <= range.lte),
    );
  }
  throw new Error(`the in-memory store does not evaluate the condition ${JSON.stringify(condition)}`);
}

function matchValue(match: Record<string, unknown>, value: unknown): boolean {
  if ('value' in match) return value === match.value;
  if ('any' in match) return (match.any as unknown[]).includes(value);
  if ('except' in match) return !(match.except as unknown[]).includes(value);
  // Without a full-text index Qdrant matches `text` as a substring; the fake never has one.
  if ('text' in match) return typeof value === 'string' && value.includes(String(match.text));
  throw new Error(`the in-memory store does not evaluate the match ${JSON.stringify(match)}`);
}

/** The values at a dotted path; a list holds each of its elements (Qdrant matches a list by any element). */
function valuesAt(payload: Record<string, unknown>, key: string): unknown[] {
  let values: unknown[] = [payload];
  for (const part of key.split('.')) {
    values = values.flatMap((v) =>
      v !== null && typeof v === 'object' && !Array.isArray(v) && part in v
        ? [(v as Record<string, unknown>)[part]]
        : [],
    );
  }
  return values.flatMap((v) => (Array.isArray(v) ? v : [v]));
}

/** Qdrant's is_empty: the key is missing, null, or an empty list. */
function isEmptyValue(values: unknown[]): boolean {
  return values.every((v) => v === null);
}

/** Qdrant compares UUIDs in their canonical (lower-case) form. */
function sameId(a: StoredPointId, b: StoredPointId): boolean {
  return typeof a === typeof b && String(a).toLowerCase() === String(b).toLowerCase();
}
