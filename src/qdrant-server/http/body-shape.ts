/**
 * @module Shape checks for request bodies, failing with serde-style texts (`invalid type: string "x", expected usize`)
 * as 400 `Format error in JSON body`, the way Qdrant's deserializer reports them (qdrant-subset.md §0.2).
 */
import { parseJsonPointId, type PointId } from '../engine/point-id.js';
import { formatError, type QdrantError } from '../qdrant-error.js';
import { describeInvalidType } from '../serde-wording.js';

export type JsonObject = Record<string, unknown>;

/** 400 `invalid type: <value>, expected <expected>`. */
export function invalidType(value: unknown, expected: string): QdrantError {
  return formatError(describeInvalidType(value, expected));
}

/** 400 ``missing field `name` ``. */
export function missingField(name: string): QdrantError {
  return formatError(`missing field \`${name}\``);
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value as an object, or a 400 naming what was expected (e.g. `struct SearchRequest`). */
export function readObject(value: unknown, expected: string): JsonObject {
  if (!isJsonObject(value)) throw invalidType(value, expected);
  return value;
}

/** A field that may be absent or null (serde's Option), else must be a boolean. */
export function readOptionalBool(body: JsonObject, key: string): boolean | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw invalidType(value, 'a boolean');
  return value;
}

/** An optional unsigned integer (usize / u64). */
export function readOptionalUnsigned(body: JsonObject, key: string): number | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value)) throw invalidType(value, 'usize');
  if (value < 0) throw formatError(`invalid value: integer \`${value}\`, expected usize`);
  return value;
}

/** An optional number read as f32 (score thresholds). */
export function readOptionalNumber(body: JsonObject, key: string): number | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number') throw invalidType(value, 'f32');
  return value;
}

/** An optional string. */
export function readOptionalString(body: JsonObject, key: string): string | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalidType(value, 'a string');
  return value;
}

/** A dense vector: a non-nested array of numbers. */
export function readDenseVector(value: unknown): number[] {
  if (!Array.isArray(value)) throw invalidType(value, 'a sequence');
  for (const item of value) {
    if (typeof item !== 'number') throw invalidType(item, 'f32');
  }
  return value as number[];
}

/** A list of point ids (`points` of a selector, `ids` of retrieve). */
export function readPointIds(value: unknown): PointId[] {
  if (!Array.isArray(value)) throw invalidType(value, 'a sequence');
  return value.map(parseJsonPointId);
}
