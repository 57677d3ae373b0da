/**
 * @module The payload filters the service sends the store, built in one place: a memory-pool point always
 * has a `source`; SillyTavern's points have none, and that one distinction is spelt here only.
 */
import type { StoreCondition, StoreFilter } from './point-store.js';

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

/** Points that meet every condition. */
export function allOf(...conditions: StoreCondition[]): StoreFilter {
  return { must: conditions };
}

/** The points SillyTavern (st-qdrant-memory) wrote: they carry no `source`. */
export function unsourcedPoints(): StoreFilter {
  return { must: [isEmpty('source')] };
}

/** The points memory-pool wrote: every one has a `source`. */
export function sourcedPoints(): StoreFilter {
  return { must_not: [isEmpty('source')] };
}
