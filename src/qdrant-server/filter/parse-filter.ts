/**
 * @module Parsing a `filter` JSON value into the AST (qdrant-subset.md §4.1), with Qdrant's errors:
 * shape problems are 400 format errors; rule violations (empty field condition, `min_count` 0) are
 * collected and reported together as one 422, after the whole filter parsed, as actix does.
 */
import { parseJsonPointId } from '../engine/point-id.js';
import { type FieldViolation, formatError, validationError } from '../qdrant-error.js';
import type { Condition, FieldCondition, Filter } from './filter-ast.js';
import { asUsize, invalidType, isJsonObject } from './json-value.js';
import { parseJsonPath } from './json-path.js';
import { parseGeoCondition } from './geo-condition.js';
import { parseMatch, parseRange, parseValuesCount } from './parse-condition-parts.js';

const FILTER_FIELDS = ['should', 'min_should', 'must', 'must_not'];
const GEO_FIELDS = ['geo_bounding_box', 'geo_radius', 'geo_polygon'] as const;
const CONDITION_EXPECTING =
  'Expected some form of condition, which can be a field condition (like {"key": ..., "match": ... }), or some other mentioned in the documentation: https://qdrant.tech/documentation/concepts/filtering/#filtering-conditions';

function parseKey(value: unknown): string {
  if (typeof value !== 'string') throw formatError(invalidType(value, 'a string'));
  parseJsonPath(value);
  return value;
}

/** `{"key": …}` or `{"key": …}` under is_empty / is_null / nested: must be a string holding a valid path. */
function parsePayloadField(json: unknown): string | undefined {
  if (!isJsonObject(json) || typeof json.key !== 'string') return undefined;
  return parseKey(json.key);
}

function present(value: unknown): boolean {
  return value !== undefined && value !== null;
}

function parseFieldCondition(
  json: Record<string, unknown>,
  path: string,
  violations: FieldViolation[],
): FieldCondition {
  if (typeof json.key !== 'string') throw formatError("Filter condition 'key' must be a string");
  const key = parseKey(json.key);
  // Unknown extra keys are ignored, as Qdrant's FieldCondition does not deny them.
  const condition: { -readonly [K in keyof FieldCondition]: FieldCondition[K] } = { kind: 'field', key };
  const geo = GEO_FIELDS.filter((field) => present(json[field])).map((field) =>
    parseGeoCondition(field, json[field]),
  );
  if (geo.length > 0) condition.geo = geo;
  if (present(json.match)) condition.match = parseMatch(json.match);
  if (present(json.range)) condition.range = parseRange(json.range);
  if (present(json.values_count)) condition.valuesCount = parseValuesCount(json.values_count);
  for (const flag of ['is_empty', 'is_null'] as const) {
    const v = json[flag];
    if (!present(v)) continue;
    if (typeof v !== 'boolean') throw formatError(invalidType(v, 'a boolean'));
    if (flag === 'is_empty') condition.isEmpty = v;
    else condition.isNull = v;
  }
  const { match, range, valuesCount, isEmpty, isNull } = condition;
  if (!match && !range && !valuesCount && !condition.geo && isEmpty === undefined && isNull === undefined) {
    violations.push({ path, message: 'At least one field condition must be specified' });
  }
  return condition;
}

/** `slice: {total, index}`: total a nonzero u32, index below total (else 422, as Qdrant's validator). */
function parseSlice(json: unknown, path: string, violations: FieldViolation[]): Condition {
  if (!isJsonObject(json)) throw formatError(invalidType(json, 'struct Slice'));
  const total = asUsize(json.total);
  const index = asUsize(json.index);
  if (total === undefined || total === 0 || total > 0xffff_ffff) {
    throw formatError(invalidType(json.total, 'a nonzero u32'));
  }
  if (index === undefined || index > 0xffff_ffff) throw formatError(invalidType(json.index, 'u32'));
  if (index >= total) {
    violations.push({ path, message: 'Slice index must be less than the total number of slices' });
  }
  return { kind: 'slice', total, index };
}

/** Tries the condition variants in Qdrant's untagged order; `key` always means a field condition. */
function parseCondition(json: unknown, path: string, violations: FieldViolation[]): Condition {
  if (!isJsonObject(json)) throw formatError(CONDITION_EXPECTING);
  if ('key' in json) return parseFieldCondition(json, path, violations);
  const isEmptyKey = parsePayloadField(json.is_empty);
  if (isEmptyKey !== undefined) return { kind: 'is_empty', key: isEmptyKey };
  const isNullKey = parsePayloadField(json.is_null);
  if (isNullKey !== undefined) return { kind: 'is_null', key: isNullKey };
  if (Array.isArray(json.has_id)) return { kind: 'has_id', ids: json.has_id.map(parseJsonPointId) };
  if (typeof json.has_vector === 'string') return { kind: 'has_vector', name: json.has_vector };
  if (present(json.slice)) return parseSlice(json.slice, path, violations);
  const nested = json.nested;
  if (isJsonObject(nested) && typeof nested.key === 'string' && isJsonObject(nested.filter)) {
    const key = parseKey(nested.key);
    return {
      kind: 'nested',
      key,
      filter: parseFilterObject(nested.filter, `${path}.nested.filter`, violations),
    };
  }
  if (Object.keys(json).every((k) => FILTER_FIELDS.includes(k))) {
    return { kind: 'filter', filter: parseFilterObject(json, path, violations) };
  }
  throw formatError(CONDITION_EXPECTING);
}

/** must / should / must_not: one condition, a list, or null (MaybeOneOrMany). */
function parseClause(json: unknown, path: string, violations: FieldViolation[]): Condition[] | null {
  if (json === undefined || json === null) return null;
  if (Array.isArray(json)) return json.map((c, i) => parseCondition(c, `${path}[${i}]`, violations));
  return [parseCondition(json, path, violations)];
}

function parseMinShould(json: unknown, path: string, violations: FieldViolation[]): Filter['minShould'] {
  if (json === undefined || json === null) return null;
  if (!isJsonObject(json)) throw formatError(invalidType(json, 'struct MinShould'));
  if (json.conditions === undefined) throw formatError('missing field `conditions`');
  if (json.min_count === undefined) throw formatError('missing field `min_count`');
  if (!Array.isArray(json.conditions)) throw formatError(invalidType(json.conditions, 'a sequence'));
  const minCount = asUsize(json.min_count);
  if (minCount === undefined) throw formatError(invalidType(json.min_count, 'usize'));
  const conditions = json.conditions.map((c, i) => parseCondition(c, `${path}.conditions[${i}]`, violations));
  // Since 1.19 (qdrant#9401): min_count 0 with no conditions would match everything.
  if (minCount < 1)
    violations.push({ path: `${path}.min_count`, message: 'min_count must be greater than 0' });
  return { conditions, minCount };
}

function parseFilterObject(json: unknown, path: string, violations: FieldViolation[]): Filter {
  if (!isJsonObject(json)) throw formatError(invalidType(json, 'struct Filter'));
  for (const key of Object.keys(json)) {
    if (!FILTER_FIELDS.includes(key)) {
      throw formatError(
        `unknown field \`${key}\`, expected one of \`should\`, \`min_should\`, \`must\`, \`must_not\``,
      );
    }
  }
  return {
    should: parseClause(json.should, `${path}.should`, violations),
    minShould: parseMinShould(json.min_should, `${path}.min_should`, violations),
    must: parseClause(json.must, `${path}.must`, violations),
    mustNot: parseClause(json.must_not, `${path}.must_not`, violations),
  };
}

/**
 * Parses a `filter` JSON value; null/undefined → undefined. `path` names the filter in 422 messages
 * (e.g. `search_request.filter`); it defaults to `filter`.
 */
export function parseFilter(json: unknown, path = 'filter'): Filter | undefined {
  if (json === undefined || json === null) return undefined;
  const violations: FieldViolation[] = [];
  const filter = parseFilterObject(json, path, violations);
  if (violations.length > 0) throw validationError(violations);
  return filter;
}
