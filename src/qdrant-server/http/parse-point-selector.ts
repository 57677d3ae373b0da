/**
 * @module Which points a delete, clear or payload operation touches: `{points}` or `{filter}` (qdrant-subset.md §2).
 * In both forms explicit ids win over a filter.
 */
import type { PointSelector } from '../engine/engine-api.js';
import { formatError } from '../qdrant-error.js';
import { type JsonObject, readPointIds } from './body-shape.js';
import { readFilter } from './parse-read-options.js';

/** `PointsSelector` of delete and clear: an untagged enum, so a body with neither key matches no variant. */
export function parsePointsSelector(body: JsonObject): PointSelector {
  if (body.points !== undefined && body.points !== null) return { ids: readPointIds(body.points) };
  const filter = readFilter(body);
  if (filter === undefined)
    throw formatError('data did not match any variant of untagged enum PointsSelector');
  return { filter };
}

/** The target of the payload operations: `points` or `filter`, else 400. */
export function parsePayloadTarget(body: JsonObject): PointSelector {
  if (body.points !== undefined && body.points !== null) return { ids: readPointIds(body.points) };
  const filter = readFilter(body);
  if (filter === undefined) throw formatError('Either list of point ids or filter must be provided');
  return { filter };
}
