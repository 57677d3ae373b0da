/**
 * @module Payload edits: set payload (shallow merge, optionally at a key path) and delete payload keys
 * (json_path/mod.rs::value_set, value_remove; common/utils.rs::merge_map). Inputs are never mutated.
 */
import type { Payload } from './filter-api.js';
import { type PathItem, parseJsonPath, readOwn } from './json-path.js';
import { copyJson, emptyJsonObject, setOwn } from './json-value.js';

function isObject(value: unknown): value is Payload {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// Every object built here comes from copyJson or emptyJsonObject: payloads never have a prototype, so no
// path step (`__proto__`, `constructor`) can read or edit Object.prototype.

/** Top-level merge where a null value removes the key instead of storing null. */
function mergeInto(dest: Payload, values: Payload): void {
  for (const [key, value] of Object.entries(values)) {
    if (value === null) delete dest[key];
    else setOwn(dest, key, copyJson(value));
  }
}

// Follows value_set: a key step turns a non-object into {}, an index step into [] (and sets nothing
// when the element is absent), and `[]` on a non-array replaces it with [] and stops.
function setAt(dest: unknown, rest: readonly PathItem[], i: number, values: Payload): unknown {
  const item = rest[i];
  if (item === undefined) {
    const target = isObject(dest) ? dest : emptyJsonObject();
    mergeInto(target, values);
    return target;
  }
  if (item.kind === 'key') {
    const target = isObject(dest) ? dest : emptyJsonObject();
    setOwn(target, item.key, setAt(readOwn(target, item.key, item.inherited) ?? null, rest, i + 1, values));
    return target;
  }
  if (!Array.isArray(dest)) return [];
  if (item.kind === 'index') {
    if (item.index < dest.length) dest[item.index] = setAt(dest[item.index], rest, i + 1, values);
    return dest;
  }
  for (let k = 0; k < dest.length; k++) dest[k] = setAt(dest[k], rest, i + 1, values);
  return dest;
}

/** `set payload`: shallow merge where null removes a key; with `key`, merges into the object at that JSON path. Returns a new object. */
export function mergePayload(payload: Payload, values: Payload, key?: string): Payload {
  if (key === undefined) {
    const out = Object.assign(emptyJsonObject(), payload);
    mergeInto(out, values);
    return out;
  }
  const path = parseJsonPath(key);
  const out = copyJson(payload);
  setOwn(out, path.first, setAt(readOwn(out, path.first, path.firstInherited) ?? null, path.rest, 0, values));
  return out;
}

// Follows value_remove: removes a trailing key, empties the array under a trailing `[]`, and leaves a
// trailing index alone (deleting by index is not idempotent, so Qdrant does not support it).
function removeAt(node: unknown, rest: readonly PathItem[], i: number): void {
  const item = rest[i]!;
  const last = i === rest.length - 1;
  if (item.kind === 'key') {
    if (!isObject(node)) return;
    if (last) delete node[item.key];
    else removeAt(readOwn(node, item.key, item.inherited), rest, i + 1);
    return;
  }
  if (!Array.isArray(node)) return;
  if (item.kind === 'index') {
    if (!last && item.index < node.length) removeAt(node[item.index], rest, i + 1);
  } else if (last) {
    node.length = 0;
  } else {
    for (const element of node) removeAt(element, rest, i + 1);
  }
}

/** `delete payload keys`: removes each JSON path. Returns a new object. */
export function deletePayloadPaths(payload: Payload, paths: readonly string[]): Payload {
  const parsed = paths.map(parseJsonPath);
  const out = copyJson(payload);
  for (const path of parsed) {
    if (path.rest.length === 0) delete out[path.first];
    else removeAt(readOwn(out, path.first, path.firstInherited), path.rest, 0);
  }
  return out;
}
