/** @module Qdrant point ids: unsigned integers or UUIDs, parsed, compared and keyed the way Qdrant does (qdrant-subset.md §2). */
import { formatError, badInput } from '../qdrant-error.js';

/** A normalized point id: a safe non-negative integer, or a lowercase hyphenated UUID. */
export type PointId = number | string;

const HEX32 = /^[0-9a-f]{32}$/;

/** Parses the UUID forms the `uuid` crate accepts (hyphenated, simple, braced, urn) into lowercase hyphenated form. */
export function parseUuid(text: string): string | undefined {
  let body = text.toLowerCase();
  if (body.startsWith('urn:uuid:')) body = body.slice(9);
  else if (body.startsWith('{') && body.endsWith('}')) body = body.slice(1, -1);
  let hex: string;
  if (body.length === 36) {
    if (body[8] !== '-' || body[13] !== '-' || body[18] !== '-' || body[23] !== '-') return undefined;
    hex = body.replaceAll('-', '');
  } else if (body.length === 32) {
    hex = body;
  } else {
    return undefined;
  }
  if (!HEX32.test(hex)) return undefined;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function describe(value: unknown): string {
  return typeof value === 'string' ? `"${value}"` : (JSON.stringify(value) ?? String(value));
}

/**
 * Parses an id from a JSON body. Numeric strings such as "5" are not ids there (Qdrant rejects them).
 * Integers above 2^53-1 cannot survive JSON.parse exactly, so they are rejected rather than silently rounded.
 */
export function parseJsonPointId(value: unknown): PointId {
  if (typeof value === 'number') {
    if (Number.isInteger(value) && value >= 0) {
      if (!Number.isSafeInteger(value)) {
        throw formatError(
          `point id ${value} is larger than 2^53-1, which memory-pool's embedded store cannot represent exactly; use a UUID`,
        );
      }
      return value;
    }
  } else if (typeof value === 'string') {
    const uuid = parseUuid(value);
    if (uuid !== undefined) return uuid;
  }
  throw formatError(
    `value ${describe(value)} is not a valid point ID, valid values are either an unsigned integer or a UUID`,
  );
}

/** Parses an id from a URL path segment: an unsigned integer first, then a UUID. */
export function parsePathPointId(text: string): PointId {
  if (/^\d+$/.test(text)) {
    const n = Number(text);
    if (Number.isSafeInteger(n)) return n;
  }
  const uuid = parseUuid(text);
  if (uuid !== undefined) return uuid;
  throw badInput(`Can not recognize "${text}" as point id`);
}

/** Qdrant's id order: every integer before every UUID; integers numerically, UUIDs by bytes (= lowercase hex). */
export function comparePointIds(a: PointId, b: PointId): number {
  if (typeof a === 'number') {
    return typeof b === 'number' ? a - b : -1;
  }
  if (typeof b === 'number') return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A string key unique per id, for Maps and SQLite primary keys ("n:5", "u:<uuid>"). */
export function pointIdKey(id: PointId): string {
  return typeof id === 'number' ? `n:${id}` : `u:${id}`;
}

/** Inverse of pointIdKey. */
export function pointIdFromKey(key: string): PointId {
  return key.startsWith('n:') ? Number(key.slice(2)) : key.slice(2);
}
