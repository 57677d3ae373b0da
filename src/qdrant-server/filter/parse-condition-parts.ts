/** @module Parsing the parts of a field condition: `match`, `range` (numeric or datetime) and `values_count`. */
import { formatError } from '../qdrant-error.js';
import { parseDateTime } from './date-time.js';
import type { FieldCondition, MatchCondition, RangeBounds } from './filter-ast.js';
import { asUsize, invalidType, isJsonObject } from './json-value.js';

const BOUNDS = ['gt', 'gte', 'lt', 'lte'] as const;
const MATCH_ENUM = 'data did not match any variant of untagged enum MatchInterface';
const RANGE_ENUM = 'data did not match any variant of untagged enum RangeInterfaceUntagged';

function isInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value);
}

/** `any` / `except` lists: all strings or all integers (an empty list counts as strings, like serde). */
function parseList(value: unknown): (string | number)[] | undefined {
  if (!Array.isArray(value)) return undefined;
  if (value.every((v) => typeof v === 'string')) return [...new Set(value as string[])];
  if (value.every(isInteger)) return [...new Set(value as number[])];
  return undefined;
}

/** Tries the variants in Qdrant's untagged order (Value, Text, TextAny, Phrase, Prefix, Any, Except). */
export function parseMatch(json: unknown): MatchCondition {
  if (!isJsonObject(json)) throw formatError(MATCH_ENUM);
  const { value } = json;
  if (typeof value === 'string' || typeof value === 'boolean' || isInteger(value))
    return { kind: 'value', value };
  for (const kind of ['text', 'text_any', 'phrase', 'prefix'] as const) {
    const text = json[kind];
    if (typeof text === 'string') return { kind, text };
  }
  const any = parseList(json.any);
  if (any) return { kind: 'any', values: any };
  const except = parseList(json.except);
  if (except) return { kind: 'except', values: except };
  throw formatError(MATCH_ENUM);
}

/** `range`: numeric bounds, or a datetime range when any bound is a string (bounds become epoch microseconds). */
export function parseRange(json: unknown): NonNullable<FieldCondition['range']> {
  if (!isJsonObject(json)) throw formatError(RANGE_ENUM);
  const bounds: { -readonly [K in keyof RangeBounds]: number } = {};
  const datetime = BOUNDS.some((b) => typeof json[b] === 'string');
  for (const b of BOUNDS) {
    const v = json[b];
    if (v === undefined || v === null) continue;
    if (datetime) {
      if (typeof v !== 'string') throw formatError(invalidType(v, 'a string'));
      const micros = parseDateTime(v);
      if (micros === undefined) {
        throw formatError(
          `'${v}' does not match accepted datetime format (RFC3339). Example: 2014-01-01T00:00:00Z`,
        );
      }
      bounds[b] = micros;
    } else {
      if (typeof v !== 'number') throw formatError(RANGE_ENUM);
      bounds[b] = v;
    }
  }
  return { datetime, bounds };
}

/** `values_count`: non-negative integer bounds. */
export function parseValuesCount(json: unknown): RangeBounds {
  if (!isJsonObject(json)) throw formatError(invalidType(json, 'struct ValuesCount'));
  const bounds: { -readonly [K in keyof RangeBounds]: number } = {};
  for (const b of BOUNDS) {
    const v = json[b];
    if (v === undefined || v === null) continue;
    const n = asUsize(v);
    if (n === undefined) throw formatError(invalidType(v, 'usize'));
    bounds[b] = n;
  }
  return bounds;
}
