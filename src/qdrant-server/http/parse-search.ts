/** @module `POST /points/search` body, SearchRequestInternal (qdrant-subset.md §3); `limit` (alias `top`) is required. */
import type { SearchRequest } from '../engine/engine-api.js';
import { unsupported } from '../qdrant-error.js';
import {
  invalidType,
  isJsonObject,
  type JsonObject,
  missingField,
  readDenseVector,
  readObject,
  readOptionalNumber,
  readOptionalUnsigned,
} from './body-shape.js';
import { readLimit } from './parse-limit.js';
import { parseReadOptions, readFilter } from './parse-read-options.js';

/** A plain array, or `{name, vector}` where only the unnamed vector `""` exists in the embedded store. */
function readSearchVector(value: unknown): number[] {
  if (value === undefined) throw missingField('vector');
  if (isJsonObject(value)) {
    if (isJsonObject(value.vector)) throw unsupported('Sparse vectors');
    if (value.name !== '' && value.name !== undefined) throw unsupported('Named vectors');
    return readDenseVector(value.vector);
  }
  return readDenseVector(value);
}

/** Parses one search; `path` is the validator's prefix for field errors (`search_request`, `searches[0].search_request`). */
export function parseSearchRequest(json: unknown, path = 'search_request'): SearchRequest {
  const body: JsonObject = readObject(json, 'struct SearchRequest');
  const vector = readSearchVector(body.vector);
  const limitKey = body.limit === undefined ? 'top' : 'limit';
  if (body[limitKey] === undefined) throw missingField('limit');
  const offset = readOptionalUnsigned(body, 'offset') ?? 0;
  const scoreThreshold = readOptionalNumber(body, 'score_threshold');
  const filter = readFilter(body);
  const options = parseReadOptions(body, { payload: false, vector: false });
  const limit = readLimit(body, limitKey, 0, path);
  return {
    vector,
    limit,
    offset,
    ...options,
    ...(filter === undefined ? {} : { filter }),
    ...(scoreThreshold === undefined ? {} : { scoreThreshold }),
  };
}

/** `POST /points/search/batch`: `{searches: [...]}`. */
export function parseSearchBatch(json: unknown): SearchRequest[] {
  const body = readObject(json, 'struct SearchRequestBatch');
  if (!Array.isArray(body.searches)) {
    throw body.searches === undefined ? missingField('searches') : invalidType(body.searches, 'a sequence');
  }
  return body.searches.map((search, i) => parseSearchRequest(search, `searches[${i}].search_request`));
}
