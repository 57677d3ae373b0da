/**
 * @module `PUT /collections/{name}/points` body: the `points` or `batch` form of PointInsertOperations
 * (qdrant-subset.md §2, qdrant-hybrid.md §1). Dimensions and names are the engine's to check; shapes, empty
 * vectors and sparse vectors' validation rules are checked here.
 */
import type { DenseVectorInput, NamedVectorsInput, PointInput, VectorInput } from '../engine/engine-api.js';
import { parseJsonPointId } from '../engine/point-id.js';
import { isDenseInput } from '../engine/vector-config.js';
import { type Payload, setOwn } from '../filter/index.js';
import { type FieldViolation, formatError, unsupported, validationError } from '../qdrant-error.js';
import { invalidType, isJsonObject, missingField, readDenseVector, readObject } from './body-shape.js';

const NOT_A_VECTOR_STRUCT = 'data did not match any variant of untagged enum VectorStruct';
const MAX_U32 = 0xffff_ffff;

/** One named vector: a dense array or a sparse `{indices, values}` (indices u32, values f32). */
function parseNamedVector(value: unknown): VectorInput {
  if (value instanceof Float32Array) return value;
  if (Array.isArray(value)) {
    if (value.some(Array.isArray)) throw unsupported('Multivectors');
    return readDenseVector(value);
  }
  if (!isJsonObject(value) || !Array.isArray(value.indices) || !Array.isArray(value.values)) {
    if (isJsonObject(value) && ('text' in value || 'image' in value)) throw unsupported('Inference objects');
    throw formatError(NOT_A_VECTOR_STRUCT);
  }
  const { indices, values } = value;
  const isU32 = (i: unknown) => typeof i === 'number' && Number.isInteger(i) && i >= 0 && i <= MAX_U32;
  if (!indices.every(isU32) || !values.every((v) => typeof v === 'number'))
    throw formatError(NOT_A_VECTOR_STRUCT);
  return { indices: indices as number[], values: values as number[] };
}

/** A point's vector: a dense array, a map of named dense or sparse vectors, or `{}` for "no vector". */
export function parseVectorStruct(value: unknown): DenseVectorInput | NamedVectorsInput | null {
  if (value === undefined) throw missingField('vector');
  // Only a caller in this process (posted-upsert.ts) sends one: f32 numbers already, nothing to check.
  if (value instanceof Float32Array) return value;
  if (Array.isArray(value)) {
    if (value.some(Array.isArray)) throw unsupported('Multivectors');
    return readDenseVector(value);
  }
  if (isJsonObject(value)) {
    if (Object.keys(value).length === 0) return null;
    const named: Record<string, VectorInput> = {};
    for (const [name, vector] of Object.entries(value)) setOwn(named, name, parseNamedVector(vector));
    return named;
  }
  throw formatError(NOT_A_VECTOR_STRUCT);
}

/**
 * Qdrant's validator rules for sparse vectors (`lib/sparse/src/common/sparse_vector.rs::validate_sparse_vector_impl`);
 * the map key shows as `?` in the field path, as Qdrant prints it.
 */
export function sparseViolations(vector: PointInput['vector'], path: string): FieldViolation[] {
  if (vector === null || isDenseInput(vector)) return [];
  const violations: FieldViolation[] = [];
  for (const value of Object.values(vector)) {
    if (isDenseInput(value)) continue;
    const sparse = value as { indices: readonly number[]; values: readonly number[] };
    if (sparse.indices.length !== sparse.values.length) {
      violations.push({
        path: `${path}.?.values`,
        message: 'Validation error: must be the same length as indices [{}]',
      });
    }
    if (new Set(sparse.indices).size !== sparse.indices.length) {
      violations.push({ path: `${path}.?.indices`, message: 'Validation error: must be unique [{}]' });
    }
  }
  return violations;
}

/**
 * JSON has no NaN or ±Infinity: a REST body carrying one (the service's client writes them as null) is refused as
 * it is read, 400 `... expected f32`. A posted Float32Array or sparse list can hold them; refused the same way,
 * naming the component, so a point that no search can score is never stored.
 */
function refuseNonFinite(vector: PointInput['vector'], path: string): void {
  if (vector === null || Array.isArray(vector)) return;
  if (vector instanceof Float32Array) {
    refuseNonFiniteValues(vector, path);
    return;
  }
  for (const [name, value] of Object.entries(vector)) {
    if (value instanceof Float32Array) refuseNonFiniteValues(value, `${path}.${name}`);
    else if (!isDenseInput(value)) refuseNonFiniteValues(value.values, `${path}.${name}.values`);
  }
}

function refuseNonFiniteValues(values: ArrayLike<number>, path: string): void {
  for (let i = 0; i < values.length; i++) {
    const value = values[i] as number;
    if (!Number.isFinite(value)) {
      throw formatError(`${path}[${i}]: invalid value ${value}, expected f32 (a finite number)`);
    }
  }
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
  if (isJsonObject(vectors)) return parseNamedBatch(batch.ids, vectors, batch.payloads ?? null);
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

/** `batch.vectors: {NAME: [vector per id]}`: point i gets the i-th vector of every name. */
function parseNamedBatch(ids: unknown[], vectors: Record<string, unknown>, payloads: unknown): PointInput[] {
  if (payloads !== null && !Array.isArray(payloads)) throw invalidType(payloads, 'a sequence');
  const perPoint = ids.map(() => ({}) as Record<string, VectorInput>);
  for (const [name, list] of Object.entries(vectors)) {
    if (!Array.isArray(list)) throw invalidType(list, 'a sequence');
    if (list.length !== ids.length) {
      throw validationError([{ path: 'batch', message: 'number of ids and vectors must be equal' }]);
    }
    list.forEach((vector, i) => {
      setOwn(perPoint[i] as Record<string, VectorInput>, name, parseNamedVector(vector));
    });
  }
  if (payloads !== null && payloads.length !== ids.length) {
    throw validationError([{ path: 'batch', message: 'number of ids and vectors must be equal' }]);
  }
  return ids.map((rawId, i) => ({
    id: parseJsonPointId(rawId),
    vector: Object.keys(perPoint[i] as object).length === 0 ? null : (perPoint[i] as NamedVectorsInput),
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
    const path = form === 'points' ? `points[${i}].vector` : `${form}[${i}]`;
    refuseNonFinite(point.vector, path);
    if (isDenseInput(point.vector) && point.vector.length === 0) {
      violations.push({ path, message: 'dense vector must not be empty' });
    }
    violations.push(...sparseViolations(point.vector, form === 'points' ? path : 'batch.vectors'));
  });
  if (violations.length > 0) throw validationError(violations);
  return points;
}
