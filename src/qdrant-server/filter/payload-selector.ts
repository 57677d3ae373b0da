/**
 * @module `with_payload`: parsing the selector and applying include/exclude paths, through arrays
 * (types.rs::PayloadSelector::process over JsonPath::value_filter; qdrant-subset.md §3).
 */
import { formatError } from '../qdrant-error.js';
import type { Payload, PayloadSelector } from './filter-api.js';
import { isJsonObject, setOwn } from './json-value.js';
import { type JsonPath, type PathItem, keyItem, tryParseJsonPath } from './json-path.js';

const SELECTOR_EXPECTING =
  'Expected a boolean, an array of strings, or an object with an include/exclude field';

function parsePathList(json: unknown): string[] | undefined {
  if (!Array.isArray(json)) return undefined;
  if (!json.every((p) => typeof p === 'string' && tryParseJsonPath(p) !== undefined)) return undefined;
  return json as string[];
}

/** Parses `with_payload` (bool, list of paths, {include}, {exclude}); undefined/null → the endpoint's default. */
export function parsePayloadSelector(json: unknown, defaultAll: boolean): PayloadSelector {
  if (json === undefined || json === null) return { kind: defaultAll ? 'all' : 'none' };
  if (typeof json === 'boolean') return { kind: json ? 'all' : 'none' };
  const fields = parsePathList(json);
  if (fields) return { kind: 'include', paths: fields };
  // Both selector objects deny unknown fields, so each must hold exactly its one key.
  if (isJsonObject(json) && Object.keys(json).length === 1) {
    const include = 'include' in json ? parsePathList(json.include) : undefined;
    if (include) return { kind: 'include', paths: include };
    const exclude = 'exclude' in json ? parsePathList(json.exclude) : undefined;
    if (exclude) return { kind: 'exclude', paths: exclude };
  }
  // An untagged enum in Qdrant: any mismatch, an invalid path included, reports only this message.
  throw formatError(SELECTOR_EXPECTING);
}

function sameItem(a: PathItem, b: PathItem): boolean {
  if (a.kind === 'key') return b.kind === 'key' && a.key === b.key;
  if (a.kind === 'index') return b.kind === 'index' && a.index === b.index;
  return b.kind === 'wildcard';
}

/** Either path is a prefix of the other (JsonPath::check_include_pattern). */
function isIncluded(pattern: JsonPath, first: string, rest: readonly PathItem[]): boolean {
  if (pattern.first !== first) return false;
  const n = Math.min(pattern.rest.length, rest.length);
  for (let i = 0; i < n; i++) if (!sameItem(pattern.rest[i]!, rest[i]!)) return false;
  return true;
}

/** The pattern is a prefix of the path (JsonPath::check_exclude_pattern). */
function isExcluded(pattern: JsonPath, first: string, rest: readonly PathItem[]): boolean {
  if (pattern.first !== first || pattern.rest.length > rest.length) return false;
  for (let i = 0; i < pattern.rest.length; i++) if (!sameItem(pattern.rest[i]!, rest[i]!)) return false;
  return true;
}

type Keep = (first: string, rest: readonly PathItem[]) => boolean;
const WILDCARD: PathItem = { kind: 'wildcard' };

// Rebuilds the value keeping what `keep` accepts; array elements are addressed as `[]`, never by index.
function filterValue(value: unknown, first: string, rest: PathItem[], keep: Keep): unknown {
  if (Array.isArray(value)) {
    rest.push(WILDCARD);
    const out = keep(first, rest) ? value.map((v) => filterValue(v, first, rest, keep)) : [];
    rest.pop();
    return out;
  }
  if (typeof value !== 'object' || value === null) return value;
  const out: Payload = {};
  for (const [key, v] of Object.entries(value)) {
    rest.push(keyItem(key));
    if (keep(first, rest)) setOwn(out, key, filterValue(v, first, rest, keep));
    rest.pop();
  }
  return out;
}

// Selectors are built once per request and applied to every returned point, so parse their paths once.
const parsedPaths = new WeakMap<PayloadSelector, JsonPath[]>();

function patternsOf(selector: PayloadSelector & { paths: readonly string[] }): JsonPath[] {
  let patterns = parsedPaths.get(selector);
  if (!patterns) {
    patterns = selector.paths.map((p) => tryParseJsonPath(p)).filter((p): p is JsonPath => p !== undefined);
    parsedPaths.set(selector, patterns);
  }
  return patterns;
}

/** Applies a selector: undefined means "leave `payload` out of the record"; 'all' returns the payload itself. */
export function selectPayload(payload: Payload, selector: PayloadSelector): Payload | undefined {
  if (selector.kind === 'none') return undefined;
  if (selector.kind === 'all') return payload;
  const patterns = patternsOf(selector);
  const keep: Keep =
    selector.kind === 'include'
      ? (first, rest) => patterns.some((p) => isIncluded(p, first, rest))
      : (first, rest) => !patterns.some((p) => isExcluded(p, first, rest));
  const out: Payload = {};
  const rest: PathItem[] = [];
  for (const [key, value] of Object.entries(payload)) {
    if (keep(key, rest)) setOwn(out, key, filterValue(value, key, rest, keep));
  }
  return out;
}
