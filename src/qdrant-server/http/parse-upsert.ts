/**
 * @module `PUT /collections/{name}/points` body: the `points` or `batch` form of PointInsertOperations
 * (qdrant-subset.md §2). Dimensions are the engine's to check; shapes and empty vectors are checked here.
 */
import type { PointInput } from '../engine/engine-api.js';
import type { Payload } from '../filter/index.js';
import { parseJsonPointId } from '../engine/point-id.js';
import { type FieldViolation, formatError, unsupported, validationError } from '../qdrant-error.js';
import { invalidType, isJsonObject, missingField, readDenseVector, readObject } from './body-shape.js';

/** A point's vector: a dense array, or `{}` for "no vector"; named, sparse and multi vectors are not supported. */
function parseVectorStruct(value: unknown): number[] | null {
  if (value === undefined) throw missingField('vector');
  if (Array.isArray(value)) {
    if (value.some(Array.isArray)) throw unsupported('Multivectors');
    return readDenseVector(value);
  }
  if (isJsonObject(value)) {
    if (Object.keys(value).length === 0) return null;
    throw unsupported('Named vectors');
  }
  throw formatError('data did not match any variant of untagged enum VectorStruct');
}

function parsePayload(value: unknown): Payload {
  if (value === undefined || value === null) return {};
  if (!isJsonObject(value)) throw invalidType(value, 'a map');
  return value;
}

function parsePointStruct(value: unknown): PointInput {
  const point = readObject(value, 'struct PointStruct');
  if (point.id === undefined) throw missingField('id');
  const id = parseJsonPointId(point.id);
  const vector = parseVectorStruct(point.vector ?? point.vectors);
  return { id, vector, payload: parsePayload(point.payload) };
}

function parseBatch(value: unknown): PointInput[] {
  const batch = readObject(value, 'struct Batch');
  if (!Array.isArray(batch.ids))
    throw batch.ids === undefined ? missingField('ids') : invalidType(batch.ids, 'a sequence');
  const vectors = batch.vectors;
  if (vectors === undefined) throw missingField('vectors');
  if (isJsonObject(vectors)) throw unsupported('Named vectors');
  if (!Array.isArray(vectors)) throw invalidType(vectors, 'a sequence');
  const payloads = batch.payloads ?? null;
  if (payloads !== null && !Array.isArray(payloads)) throw invalidType(payloads, 'a sequence');
  if (vectors.length !== batch.ids.length || (payloads !== null && payloads.length !== batch.ids.length)) {
    throw validationError([{ path: 'batch', message: 'number of ids and vectors must be equal' }]);
  }
  return batch.ids.map((rawId, i) => ({
    id: parseJsonPointId(rawId),
    vector: parseVectorStruct(vectors[i]),
    payload: parsePayload(payloads?.[i]),
  }));
}

function checkOptions(body: Record<string, unknown>): void {
  if (body.update_filter !== undefined && body.update_filter !== null) throw unsupported('update_filter');
  if (body.update_mode !== undefined && body.update_mode !== null && body.update_mode !== 'upsert') {
    throw unsupported(`update_mode "${String(body.update_mode)}"`);
  }
  if (body.shard_key !== undefined && body.shard_key !== null) throw unsupported('Shard keys');
}

/** Parses either form into points; an empty dense vector is a 422 like Qdrant's validator gives. */
export function parseUpsert(json: unknown): PointInput[] {
  const body = readObject(json, 'PointInsertOperations');
  let points: PointInput[];
  let form: string;
  if (Array.isArray(body.points)) {
    points = body.points.map(parsePointStruct);
    form = 'points';
  } else if (isJsonObject(body.batch)) {
    points = parseBatch(body.batch);
    form = 'batch.vectors';
  } else {
    throw formatError('Invalid PointInsertOperations format');
  }
  checkOptions(body);
  const violations: FieldViolation[] = [];
  points.forEach((point, i) => {
    if (point.vector?.length === 0) {
      const path = form === 'points' ? `points[${i}].vector` : `${form}[${i}]`;
      violations.push({ path, message: 'dense vector must not be empty' });
    }
  });
  if (violations.length > 0) throw validationError(violations);
  return points;
}
