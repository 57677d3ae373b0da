/**
 * @module Per-value checks of a field condition (payload_storage/condition_checker.rs): strict-type
 * `match`, numeric and datetime `range`, `values_count`, `is_empty` / `is_null`, text with or without an index.
 */
import { parseDateTime } from './date-time.js';
import type { TextIndexParams } from './filter-api.js';
import type { FieldCondition, MatchCondition, RangeBounds } from './filter-ast.js';
import { compileGeoCondition } from './geo-condition.js';
import { compileTokenMatch } from './text-tokens.js';

type ValueTest = (value: unknown) => boolean;

/** The compiled condition: a test for one value of the multi-value, and the answer when there is none. */
export interface CompiledFieldCondition {
  readonly test: ValueTest;
  readonly whenMissing: boolean;
}

function compileBounds(bounds: RangeBounds): (n: number) => boolean {
  const { gt, gte, lt, lte } = bounds;
  return (n) =>
    (gt === undefined || n > gt) &&
    (gte === undefined || n >= gte) &&
    (lt === undefined || n < lt) &&
    (lte === undefined || n <= lte);
}

function compileMatch(match: MatchCondition, textIndex: TextIndexParams | undefined): ValueTest {
  switch (match.kind) {
    case 'value': {
      const expected = match.value;
      // Strict types: integers only equal integer numbers, and "5" never equals 5.
      if (typeof expected === 'number') return (v) => v === expected && Number.isInteger(v);
      return (v) => v === expected;
    }
    case 'any':
    case 'except': {
      const set = new Set<unknown>(match.values);
      const numbers = typeof match.values[0] === 'number';
      if (match.kind === 'any') {
        return numbers
          ? (v) => Number.isInteger(v) && set.has(v)
          : (v) => typeof v === 'string' && set.has(v);
      }
      // A value of the other type counts as "not in the list"; only null fails.
      return numbers
        ? (v) => v !== null && !(Number.isInteger(v) && set.has(v))
        : (v) => v !== null && !(typeof v === 'string' && set.has(v));
    }
    case 'prefix': {
      const prefix = match.text;
      return (v) => typeof v === 'string' && v.startsWith(prefix);
    }
    default: {
      if (textIndex) {
        const check = compileTokenMatch(match.kind, match.text, textIndex);
        return (v) => typeof v === 'string' && check(v);
      }
      const text = match.text;
      if (match.kind !== 'text_any') return (v) => typeof v === 'string' && v.includes(text);
      const pieces = text.split(/\s+/u).filter((p) => p !== '');
      return (v) => typeof v === 'string' && pieces.some((p) => v.includes(p));
    }
  }
}

function compileRange(range: NonNullable<FieldCondition['range']>): ValueTest {
  const inBounds = compileBounds(range.bounds);
  if (!range.datetime) return (v) => typeof v === 'number' && inBounds(v);
  return (v) => {
    if (typeof v !== 'string') return false;
    const micros = parseDateTime(v);
    return micros !== undefined && inBounds(micros);
  };
}

/** An array value is looked into one level: any element passes (nested arrays are not flattened). */
function lookIntoArrays(one: ValueTest): ValueTest {
  return (v) => {
    if (!Array.isArray(v)) return one(v);
    for (let i = 0; i < v.length; i++) if (one(v[i])) return true;
    return false;
  };
}

function countValues(v: unknown): number {
  if (v === null) return 0;
  return Array.isArray(v) ? v.length : 1;
}

/** Compiles a field condition, honoring Qdrant's precedence: values_count, then is_empty, then is_null. */
export function compileFieldCondition(
  condition: FieldCondition,
  textIndex: TextIndexParams | undefined,
): CompiledFieldCondition {
  const { match, range, valuesCount, isEmpty, isNull } = condition;
  const tokenized =
    textIndex !== undefined && match !== undefined && /^(text|text_any|phrase)$/.test(match.kind);
  if (tokenized) {
    // The index judges the whole value (each string element of an array), bypassing the other parts.
    const check = compileMatch(match, textIndex);
    return { test: lookIntoArrays(check), whenMissing: false };
  }
  if (valuesCount) {
    const inBounds = compileBounds(valuesCount);
    // A missing field has zero values (1.19).
    return { test: (v) => inBounds(countValues(v)), whenMissing: inBounds(0) };
  }
  if (isEmpty !== undefined) {
    const test = (v: unknown) =>
      v === null ? isEmpty : Array.isArray(v) ? (v.length === 0) === isEmpty : !isEmpty;
    return { test, whenMissing: isEmpty };
  }
  if (isNull !== undefined) {
    // An array counts as null when any element is null: `[null]` passes here but not in `{"is_null":{key}}`.
    const test = (v: unknown) =>
      v === null ? isNull : Array.isArray(v) ? v.some((x) => x === null) === isNull : !isNull;
    return { test, whenMissing: !isNull };
  }
  // match, range and the geo conditions: a value passes when any of them passes.
  const tests: ValueTest[] = [];
  if (match) tests.push(compileMatch(match, undefined));
  if (range) tests.push(compileRange(range));
  for (const geo of condition.geo ?? []) tests.push(compileGeoCondition(geo));
  const [first, ...more] = tests;
  const one: ValueTest =
    first === undefined ? () => false : more.length === 0 ? first : (v) => tests.some((test) => test(v));
  return { test: lookIntoArrays(one), whenMissing: false };
}
