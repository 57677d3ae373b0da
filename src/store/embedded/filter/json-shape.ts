/** @module Small shape checks for request JSON, worded like serde's messages so 400s read as Qdrant's do. */

/** A JSON object (not null, not an array). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** How serde names a value in `invalid type: …` messages. */
export function describeJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean') return `boolean \`${value}\``;
  if (typeof value === 'number') {
    return Number.isInteger(value) ? `integer \`${value}\`` : `floating point \`${value}\``;
  }
  if (typeof value === 'string') return `string ${JSON.stringify(value)}`;
  return Array.isArray(value) ? 'a sequence' : 'a map';
}

/** serde's `invalid type: X, expected Y`. */
export function invalidType(value: unknown, expected: string): string {
  return `invalid type: ${describeJson(value)}, expected ${expected}`;
}

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
