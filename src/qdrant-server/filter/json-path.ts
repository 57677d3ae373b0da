/** @module Qdrant JSON paths (`a.b`, `a[0]`, `a[]`, `"quoted key"`): parsing and multi-value lookup (qdrant-subset.md §4.2). */
import { formatError } from '../qdrant-error.js';

/** One step after the first key: an object key, one array index, or every array element (`[]`). */
export type PathItem =
  | { readonly kind: 'key'; readonly key: string; readonly inherited: boolean }
  | { readonly kind: 'index'; readonly index: number }
  | { readonly kind: 'wildcard' };

/** A parsed path: Qdrant paths always start with an object key. */
export interface JsonPath {
  readonly first: string;
  readonly firstInherited: boolean;
  readonly rest: readonly PathItem[];
}

/** Keys such as `constructor` or `__proto__` that a plain object inherits: reading them needs an own-property check. */
export function isInheritedKey(key: string): boolean {
  return key in Object.prototype;
}

/** A key step. */
export function keyItem(key: string): PathItem {
  return { kind: 'key', key, inherited: isInheritedKey(key) };
}

/** `obj[key]` when it is an own property, else undefined. */
export function readOwn(obj: Record<string, unknown>, key: string, inherited: boolean): unknown {
  return inherited && !Object.hasOwn(obj, key) ? undefined : obj[key];
}

// Rust's char::is_alphanumeric is Alphabetic || Numeric (general category N); `_` and `-` are also bare.
const BARE = /^[\p{Alphabetic}\p{N}_-]+/u;
const WILDCARD: PathItem = { kind: 'wildcard' };

function readQuoted(text: string, at: number): [string, number] | undefined {
  if (text[at] !== '"') return undefined;
  // A quoted key may hold anything but `"` and `\` (no escapes, as in Qdrant's grammar).
  const end = text.indexOf('"', at + 1);
  if (end < 0) return undefined;
  const body = text.slice(at + 1, end);
  if (body.includes('\\')) return undefined;
  return [body, end + 1];
}

function readKey(text: string, at: number): [string, number] | undefined {
  const bare = BARE.exec(text.slice(at));
  if (bare) return [bare[0], at + bare[0].length];
  return readQuoted(text, at);
}

/**
 * Steps a path may have after its first key. No stored payload nests deeper than a request body may (127), so a
 * longer path can match nothing; refusing it keeps the recursive edits (set, delete at a path) far from the
 * stack limit and stored payloads shallow enough to read back.
 */
export const MAX_PATH_STEPS = 127;

/** Parses a path; undefined when it is not valid or longer than MAX_PATH_STEPS. */
export function tryParseJsonPath(text: string): JsonPath | undefined {
  const path = parseSteps(text);
  return path !== undefined && path.rest.length <= MAX_PATH_STEPS ? path : undefined;
}

function parseSteps(text: string): JsonPath | undefined {
  const head = readKey(text, 0);
  if (!head) return undefined;
  const [first] = head;
  let at = head[1];
  const rest: PathItem[] = [];
  while (at < text.length) {
    const c = text[at];
    if (c === '.') {
      const key = readKey(text, at + 1);
      if (!key) return undefined;
      rest.push(keyItem(key[0]));
      at = key[1];
    } else if (c === '[') {
      const close = text.indexOf(']', at);
      if (close < 0) return undefined;
      const digits = text.slice(at + 1, close);
      if (digits === '') rest.push(WILDCARD);
      else if (/^[0-9]+$/.test(digits) && Number.isSafeInteger(Number(digits))) {
        rest.push({ kind: 'index', index: Number(digits) });
      } else return undefined;
      at = close + 1;
    } else {
      return undefined;
    }
  }
  return { first, firstInherited: isInheritedKey(first), rest };
}

/** Parses a path or throws Qdrant's 400 `Invalid json path: '…'`. */
export function parseJsonPath(text: string): JsonPath {
  const path = parseSteps(text);
  if (!path) throw formatError(`Invalid json path: '${text}'`);
  if (path.rest.length > MAX_PATH_STEPS) {
    throw formatError(
      `Invalid json path: it has ${path.rest.length + 1} steps, the embedded store allows at most ${MAX_PATH_STEPS + 1}`,
    );
  }
  return path;
}

/** The path with `[]` appended unless it already ends with one (how `nested` reads its key). */
export function toArrayPath(path: JsonPath): JsonPath {
  const last = path.rest[path.rest.length - 1];
  return last?.kind === 'wildcard' ? path : { ...path, rest: [...path.rest, WILDCARD] };
}

/** The path as text, quoting keys that need it (Qdrant's Display for JsonPath). */
export function formatJsonPath(path: JsonPath): string {
  const key = (k: string) => (BARE.exec(k)?.[0] === k ? k : `"${k}"`);
  let out = key(path.first);
  for (const item of path.rest) {
    if (item.kind === 'key') out += `.${key(item.key)}`;
    else if (item.kind === 'index') out += `[${item.index}]`;
    else out += '[]';
  }
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Result of walking a path with a test: nothing was found, values were found but none passed, or one passed. */
export const NOT_FOUND = 0;
export const FOUND = 1;
export const PASSED = 2;
export type WalkResult = typeof NOT_FOUND | typeof FOUND | typeof PASSED;

function walk(
  node: unknown,
  rest: readonly PathItem[],
  i: number,
  test: (v: unknown) => boolean,
): WalkResult {
  // Iterative over keys and indexes; recursion only fans out at `[]`, so simple paths allocate nothing.
  let current = node;
  for (let j = i; j < rest.length; j++) {
    const item = rest[j]!;
    if (item.kind === 'key') {
      if (!isObject(current)) return NOT_FOUND;
      current = readOwn(current, item.key, item.inherited);
      if (current === undefined) return NOT_FOUND;
    } else if (!Array.isArray(current)) {
      return NOT_FOUND;
    } else if (item.kind === 'index') {
      current = current[item.index];
      if (current === undefined) return NOT_FOUND;
    } else {
      let result: WalkResult = NOT_FOUND;
      for (const element of current) {
        const r = walk(element, rest, j + 1, test);
        if (r === PASSED) return PASSED;
        if (r === FOUND) result = FOUND;
      }
      return result;
    }
  }
  return test(current) ? PASSED : FOUND;
}

/** Walks every value at `path`, stopping at the first one `test` accepts. */
export function walkValues(
  payload: Record<string, unknown>,
  path: JsonPath,
  test: (value: unknown) => boolean,
): WalkResult {
  const top = readOwn(payload, path.first, path.firstInherited);
  if (top === undefined) return NOT_FOUND;
  return walk(top, path.rest, 0, test);
}

/** The multi-value at `path`: every value it reaches, an array at the end counting as one value. */
export function collectValues(payload: Record<string, unknown>, path: JsonPath): unknown[] {
  const out: unknown[] = [];
  walkValues(payload, path, (v) => {
    out.push(v);
    return false;
  });
  return out;
}
