/**
 * @module Bodies of `PUT /points/vectors` (UpdateVectors) and `POST /points/vectors/delete` (DeleteVectors),
 * `lib/api/src/rest/schema.rs`: shapes and validator rules here, names and dimensions in the engine.
 */
import type { PointSelector, PointVectorsInput } from '../engine/engine-api.js';
import { parseJsonPointId } from '../engine/point-id.js';
import { type FieldViolation, unsupported, validationError } from '../qdrant-error.js';
import { invalidType, type JsonObject, missingField, readObject } from './body-shape.js';
import { parsePayloadTarget } from './parse-point-selector.js';
import { parseVectorStruct, sparseViolations } from './parse-upsert.js';

function refuseOptions(body: JsonObject): void {
  if (body.update_filter !== undefined && body.update_filter !== null) throw unsupported('update_filter');
  if (body.shard_key !== undefined && body.shard_key !== null) throw unsupported('Shard keys');
}

/** `{points: [{id, vector}]}`; a point with no vector to set is a 422, as Qdrant's validator says. */
export function parseUpdateVectors(json: unknown): PointVectorsInput[] {
  const body = readObject(json, 'struct UpdateVectors');
  if (body.points === undefined) throw missingField('points');
  if (!Array.isArray(body.points)) throw invalidType(body.points, 'a sequence');
  if (body.points.length === 0) {
    throw validationError([{ path: 'points', message: 'must specify points to update' }]);
  }
  refuseOptions(body);
  const violations: FieldViolation[] = [];
  const points = body.points.map((raw, i) => {
    const point = readObject(raw, 'struct PointVectors');
    if (point.id === undefined) throw missingField('id');
    const id = parseJsonPointId(point.id);
    const vector = parseVectorStruct(point.vector ?? point.vectors);
    if (vector === null || vector.length === 0) {
      throw validationError([
        { path: `points[${i}].vector`, message: 'must specify vectors to update for point' },
      ]);
    }
    violations.push(...sparseViolations(vector, `points[${i}].vector`));
    return { id, vector };
  });
  // The validator runs before any name is looked up, as in Qdrant.
  if (violations.length > 0) throw validationError(violations);
  return points;
}

/** `{points | filter, vector: [names]}`. */
export function parseDeleteVectors(json: unknown): { selector: PointSelector; names: string[] } {
  const body = readObject(json, 'struct DeleteVectors');
  const list = body.vector ?? body.vectors;
  if (list === undefined) throw missingField('vector');
  if (!Array.isArray(list)) throw invalidType(list, 'a sequence');
  const names = list.map((name) => {
    if (typeof name !== 'string') throw invalidType(name, 'a string');
    return name;
  });
  if (names.length === 0) {
    throw validationError([{ path: 'vector', message: 'must specify vector names to delete' }]);
  }
  refuseOptions(body);
  return { selector: parsePayloadTarget(body), names: [...new Set(names)] };
}
