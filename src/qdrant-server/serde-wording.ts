/** @module serde's wording for JSON values, so the embedded store's 400s read as Qdrant's do. */

/** How serde's `Unexpected` names a JSON value in `invalid type: …` messages. */
export function describeJsonValue(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean') return `boolean \`${value}\``;
  if (typeof value === 'number') {
    return Number.isInteger(value) ? `integer \`${value}\`` : `floating point \`${value}\``;
  }
  if (typeof value === 'string') return `string ${JSON.stringify(value)}`;
  return Array.isArray(value) ? 'sequence' : 'map';
}

/** serde's `invalid type: X, expected Y`. */
export function describeInvalidType(value: unknown, expected: string): string {
  return `invalid type: ${describeJsonValue(value)}, expected ${expected}`;
}
