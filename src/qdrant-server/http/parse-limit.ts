/** @module The `limit` rule every read shares: an unsigned integer, at least 1, reported under the request's field path. */
import { validationError } from '../qdrant-error.js';
import { type JsonObject, readOptionalUnsigned } from './body-shape.js';

/** Reads `key` (default `fallback`); 0 is a 422 at `<path>.limit` (e.g. `search_request.limit`). */
export function readLimit(body: JsonObject, key: string, fallback: number, path: string): number {
  const limit = readOptionalUnsigned(body, key) ?? fallback;
  if (limit < 1) {
    throw validationError([
      { path: `${path}.limit`, message: `value ${limit} invalid, must be 1 or larger` },
    ]);
  }
  return limit;
}
