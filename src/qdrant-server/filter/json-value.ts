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
