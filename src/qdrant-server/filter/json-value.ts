/** @module Small shape checks for request JSON, worded like serde's messages so 400s read as Qdrant's do. */
import { describeInvalidType } from '../serde-wording.js';

/** A JSON object (not null, not an array). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** serde's `invalid type: X, expected Y`. */
export const invalidType = describeInvalidType;

/** A JSON integer that fits `usize`, or undefined. */
export function asUsize(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}

/**
 * Sets an own data property. Plain assignment would treat a `__proto__` key from client JSON as the
 * prototype setter instead of storing it.
 */
export function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
}

/**
 * The prototype of every payload object: empty, frozen, and without a prototype of its own. Inheriting from it
 * instead of from null keeps V8's fast (hidden-class) properties: an `Object.create(null)` object is a hash
 * table, about 3x larger and several times slower to read in a filter scan over every point, while this one
 * is as fast as a literal and still inherits nothing (no `__proto__` setter, no `constructor`).
 */
const PAYLOAD_PROTOTYPE: object = Object.freeze(Object.create(null));

/** Whether nothing can be read from `value` that is not its own property (true of every payload object). */
export function inheritsNothing(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === null || (proto === PAYLOAD_PROTOTYPE && Object.getPrototypeOf(proto) === null);
}

/**
 * A deep copy of JSON data in which every object inherits nothing. Stored payloads are always such copies, so
 * a key such as `__proto__` or `constructor` is only ever data: no lookup can fall through to Object.prototype
 * and no edit can reach it (plain assignment creates an own key). Depth is bounded when the request body is
 * parsed.
 */
export function copyJson<T>(value: T): T {
  if (Array.isArray(value)) return value.map(copyJson) as T;
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = Object.create(PAYLOAD_PROTOTYPE);
  for (const key of Object.keys(value)) out[key] = copyJson((value as Record<string, unknown>)[key]);
  return out as T;
}

/** A new, empty payload object that inherits nothing. */
export function emptyJsonObject(): Record<string, unknown> {
  return Object.create(PAYLOAD_PROTOTYPE);
}
