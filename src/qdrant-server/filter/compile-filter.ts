/**
 * @module Compiling a parsed filter into one predicate (payload_storage/query_checker.rs). Paths,
 * sets and token queries are prepared once, so checking a point allocates nothing on simple paths.
 */
import type { PointId } from '../engine/point-id.js';
import type { FilterablePoint, IndexLookup, Payload, PointPredicate } from './filter-api.js';
import type { Condition, Filter } from './filter-ast.js';
import { isInSlice } from './slice-hash.js';
import { compileFieldCondition } from './compile-field-condition.js';
import { NOT_FOUND, PASSED, formatJsonPath, parseJsonPath, toArrayPath, walkValues } from './json-path.js';

/** A check against one payload object; `point` is undefined inside `nested`, where ids and vectors are not visible. */
type Check = (payload: Payload, point: FilterablePoint | undefined) => boolean;

const ALWAYS: Check = () => true;
const isNonEmpty = (v: unknown) => v !== null && !(Array.isArray(v) && v.length === 0);
const isNullValue = (v: unknown) => v === null;

function isObject(value: unknown): value is Payload {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

interface Scope {
  readonly indexes: IndexLookup;
  /** The nested array path this scope is inside of, for finding indexes on `outer[].inner` keys. */
  readonly prefix: string | undefined;
}

function compileCondition(condition: Condition, scope: Scope): Check {
  switch (condition.kind) {
    case 'field': {
      const path = parseJsonPath(condition.key);
      const indexKey = scope.prefix === undefined ? condition.key : `${scope.prefix}.${condition.key}`;
      const { test, whenMissing } = compileFieldCondition(condition, scope.indexes.textIndex(indexKey));
      if (path.rest.length === 0 && !path.firstInherited) {
        // The common one-key path, read directly: this runs for every point of a search.
        const key = path.first;
        return (payload) => {
          const v = payload[key];
          return v === undefined ? whenMissing : test(v);
        };
      }
      return (payload) => {
        const r = walkValues(payload, path, test);
        return r === NOT_FOUND ? whenMissing : r === PASSED;
      };
    }
    case 'is_empty': {
      // Empty when every value is null or [] (a missing field has none): no value may be non-empty.
      const path = parseJsonPath(condition.key);
      return (payload) => walkValues(payload, path, isNonEmpty) !== PASSED;
    }
    case 'is_null': {
      const path = parseJsonPath(condition.key);
      return (payload) => walkValues(payload, path, isNullValue) === PASSED;
    }
    case 'has_id': {
      const ids = new Set<PointId>(condition.ids);
      return (_payload, point) => point !== undefined && ids.has(point.id);
    }
    case 'slice': {
      const { total, index } = condition;
      return (_payload, point) => point !== undefined && isInSlice(point.id, total, index);
    }
    case 'has_vector': {
      const name = condition.name;
      return (_payload, point) => point?.hasVector(name) === true;
    }
    case 'nested': {
      const path = toArrayPath(parseJsonPath(condition.key));
      const prefix = formatJsonPath(path);
      const inner = compileChecks(condition.filter, {
        indexes: scope.indexes,
        prefix: scope.prefix === undefined ? prefix : `${scope.prefix}.${prefix}`,
      });
      const test = (element: unknown) => isObject(element) && inner(element, undefined);
      return (payload) => walkValues(payload, path, test) === PASSED;
    }
    case 'filter':
      return compileChecks(condition.filter, scope);
  }
}

function compileList(conditions: readonly Condition[], scope: Scope): Check[] {
  return conditions.map((c) => compileCondition(c, scope));
}

function compileChecks(filter: Filter, scope: Scope): Check {
  const parts: Check[] = [];
  // Cheap, selective must/must_not first; the result does not depend on the order.
  if (filter.must) parts.push(...compileList(filter.must, scope));
  if (filter.mustNot) {
    for (const c of compileList(filter.mustNot, scope)) parts.push((p, pt) => !c(p, pt));
  }
  if (filter.should) {
    // `.any()` over an empty list: `should: []` matches nothing.
    const should = compileList(filter.should, scope);
    parts.push((p, pt) => {
      for (const c of should) if (c(p, pt)) return true;
      return false;
    });
  }
  if (filter.minShould) {
    const conditions = compileList(filter.minShould.conditions, scope);
    const need = filter.minShould.minCount;
    parts.push((p, pt) => {
      let hits = 0;
      for (const c of conditions) if (c(p, pt) && ++hits >= need) return true;
      return hits >= need;
    });
  }
  if (parts.length === 0) return ALWAYS;
  if (parts.length === 1) return parts[0]!;
  return (p, pt) => {
    for (const c of parts) if (!c(p, pt)) return false;
    return true;
  };
}

/** Builds a predicate for a parsed filter; `undefined` matches everything. */
export function compileFilter(filter: Filter | undefined, indexes: IndexLookup): PointPredicate {
  if (!filter) return () => true;
  const check = compileChecks(filter, { indexes, prefix: undefined });
  return (point) => check(point.payload, point);
}
