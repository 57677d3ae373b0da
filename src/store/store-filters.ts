/**
 * @module The payload filters the service sends the store, built in one place: a memory-pool point always
 * has a `source`; SillyTavern's points have none, and that one distinction is spelt here only.
 */
import type { StoreCondition, StoredPointId, StoreFilter } from './point-store.js';

/** Points whose `key` holds exactly `value`. */
export function matchValue(key: string, value: string | number | boolean): StoreCondition {
  return { key, match: { value } };
}

/** Points whose `key` holds any of `values`. */
export function matchAny(key: string, values: readonly string[]): StoreCondition {
  return { key, match: { any: [...values] } };
}

/** Points without `key` (missing, null or an empty list). */
export function isEmpty(key: string): StoreCondition {
  return { is_empty: { key } };
}

/** Points whose `key` contains `text` (a full-text match where the key has a text index, else a substring). */
export function matchText(key: string, text: string): StoreCondition {
  return { key, match: { text } };
}

/** Points whose numeric `key` lies in the range (bounds left out are open). */
export function inRange(
  key: string,
  range: { readonly gte?: number; readonly lte?: number; readonly lt?: number },
): StoreCondition {
  return { key, range: { ...range } };
}

/** The points with these ids. */
export function hasId(ids: readonly StoredPointId[]): StoreCondition {
  return { has_id: [...ids] };
}

/** Points that meet at least one condition. */
export function anyOf(...conditions: StoreCondition[]): StoreFilter {
  return { should: conditions };
}

/** Points that meet none of the conditions. */
export function noneOf(...conditions: StoreCondition[]): StoreFilter {
  return { must_not: conditions };
}

/** Points meeting every `must` and no `mustNot`; undefined when both are empty (no filter at all). */
export function combineConditions(
  must: readonly StoreCondition[],
  mustNot: readonly StoreCondition[] = [],
): StoreFilter | undefined {
  if (must.length === 0 && mustNot.length === 0) return undefined;
  return {
    ...(must.length ? { must: [...must] } : {}),
    ...(mustNot.length ? { must_not: [...mustNot] } : {}),
  };
}

/** Points that meet every condition. */
export function allOf(...conditions: StoreCondition[]): StoreFilter {
  return { must: conditions };
}

/** Points that meet every filter given: their `must` and `must_not` joined; undefined when none narrows. */
export function joinFilters(...filters: readonly (StoreFilter | undefined)[]): StoreFilter | undefined {
  const must: StoreCondition[] = [];
  const mustNot: StoreCondition[] = [];
  for (const filter of filters) {
    if (filter === undefined) continue;
    const { must: all, must_not: none, ...rest } = filter;
    must.push(...listConditions(all));
    mustNot.push(...listConditions(none));
    // A `should` keeps its meaning only as a nested condition of its own.
    if (Object.values(rest).some((value) => value != null)) must.push(rest);
  }
  return combineConditions(must, mustNot);
}

const listConditions = (conditions: StoreCondition | StoreCondition[] | null | undefined) =>
  conditions == null ? [] : Array.isArray(conditions) ? conditions : [conditions];

/** The payload key every memory-pool point carries and SillyTavern's (st-qdrant-memory's) lack. */
export const SOURCE_KEY = 'source';

/** The condition SillyTavern's (st-qdrant-memory's) points meet: they carry no `source`, memory-pool's all do. */
export function withoutSource(): StoreCondition {
  return isEmpty(SOURCE_KEY);
}

/** The points SillyTavern (st-qdrant-memory) wrote: they carry no `source`. */
export function unsourcedPoints(): StoreFilter {
  return allOf(withoutSource());
}

/** Those of `ids` that SillyTavern wrote (a point with a `source` among them is not matched). */
export function unsourcedPointsAmong(ids: readonly StoredPointId[]): StoreFilter {
  return allOf(hasId(ids), withoutSource());
}

/** Whether a payload's `source` is what `withoutSource()` matches (missing, null, an empty list). */
export function isUnsourcedPayload(payload: Readonly<Record<string, unknown>>): boolean {
  const { source } = payload;
  return source === undefined || source === null || (Array.isArray(source) && source.length === 0);
}

/** The points memory-pool wrote: every one has a `source`. */
export function sourcedPoints(): StoreFilter {
  return noneOf(withoutSource());
}
