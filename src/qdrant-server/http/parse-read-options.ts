/** @module The read options every point-returning request shares: `with_payload`, `with_vector` (alias `with_vectors`), `filter`. */
import type { ReadOptions } from '../engine/engine-api.js';
import { type Filter, parseFilter, parsePayloadSelector } from '../filter/index.js';
import type { PayloadSelector } from '../filter/index.js';
import { invalidType, type JsonObject } from './body-shape.js';

const ALL: PayloadSelector = { kind: 'all' };
const NONE: PayloadSelector = { kind: 'none' };

/** `with_payload`; the plain forms are decided here so the common requests do not depend on the path parser. */
function readPayloadSelector(value: unknown, defaultAll: boolean): PayloadSelector {
  if (value === undefined || value === null) return defaultAll ? ALL : NONE;
  if (value === true) return ALL;
  if (value === false) return NONE;
  return parsePayloadSelector(value, defaultAll);
}

/** `with_vector`: a bool, or a list of vector names (names the collection lacks return nothing). */
function readWithVector(value: unknown, defaultOn: boolean): boolean | string[] {
  if (value === undefined || value === null) return defaultOn;
  if (typeof value === 'boolean') return value;
  if (Array.isArray(value) && value.every((name) => typeof name === 'string')) return value;
  throw invalidType(value, 'a boolean or a list of vector names');
}

/** Parses both selectors with the endpoint's defaults (qdrant-subset.md §3, read defaults table). */
export function parseReadOptions(
  body: JsonObject,
  defaults: { payload: boolean; vector: boolean },
): ReadOptions {
  return {
    withPayload: readPayloadSelector(body.with_payload, defaults.payload),
    withVector: readWithVector(body.with_vector ?? body.with_vectors, defaults.vector),
  };
}

/** The optional `filter`; absent and null both mean "no filter". */
export function readFilter(body: JsonObject, key = 'filter'): Filter | undefined {
  const value = body[key];
  return value === undefined || value === null ? undefined : parseFilter(value);
}
