/** @module Points as Qdrant serializes them: `Record` and `ScoredPoint` key order, f32 vectors and scores in shortest form. */
import type { PointRecord, ScoredPointRecord } from '../engine/engine-api.js';
import { setOwn } from '../filter/index.js';
import { toShortestF32, toShortestF32Vector } from './f32-number.js';

/** A record's `vector`: a bare array for the unnamed vector, else `{name: [..] | {indices, values}}`. */
function formatVectors(vector: NonNullable<PointRecord['vector']>): unknown {
  if (Array.isArray(vector)) return toShortestF32Vector(vector);
  const json: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(vector)) {
    // Defined, not assigned: a vector named `__proto__` is a key like any other.
    setOwn(
      json,
      name,
      Array.isArray(value)
        ? toShortestF32Vector(value)
        : { indices: value.indices, values: toShortestF32Vector(value.values) },
    );
  }
  return json;
}

/** `{id, payload?, vector?, order_value?}`; absent parts stay absent (not null). */
export function formatRecord(record: PointRecord & { order_value?: number }): Record<string, unknown> {
  const json: Record<string, unknown> = { id: record.id };
  if (record.payload !== undefined) json.payload = record.payload;
  if (record.vector !== undefined) json.vector = formatVectors(record.vector);
  if (record.order_value !== undefined) json.order_value = record.order_value;
  return json;
}

/** `{id, version, score, payload?, vector?, order_value?}`. */
export function formatScoredPoint(point: ScoredPointRecord): Record<string, unknown> {
  const json: Record<string, unknown> = {
    id: point.id,
    version: point.version,
    score: toShortestF32(point.score),
  };
  if (point.payload !== undefined) json.payload = point.payload;
  if (point.vector !== undefined) json.vector = formatVectors(point.vector);
  if (point.order_value !== undefined) json.order_value = point.order_value;
  return json;
}
