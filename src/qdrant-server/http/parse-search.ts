/** @module `POST /points/search` body, SearchRequestInternal (qdrant-subset.md §3); `limit` (alias `top`) is required. */
import type { SearchRequest, VectorInput } from '../engine/engine-api.js';
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
import { readIdfParams, readSearchParams } from './parse-search-params.js';
import { readSparseVector } from './read-sparse-vector.js';

/** NamedVectorStruct: a plain array (the unnamed vector), or `{name, vector}` with a dense or sparse vector. */
function readSearchVector(value: unknown, path: string): { vector: VectorInput; using: string } {
  if (value === undefined) throw missingField('vector');
  if (isJsonObject(value)) {
    if (typeof value.name !== 'string') throw missingField('name');
    const vector = isJsonObject(value.vector)
      ? readSparseVector(value.vector, `${path}.vector.vector`)
      : readDenseVector(value.vector);
    return { vector, using: value.name };
  }
  return { vector: readDenseVector(value), using: '' };
}

/** Parses one search; `path` is the validator's prefix for field errors (`search_request`, `searches[0].search_request`). */
export function parseSearchRequest(json: unknown, path = 'search_request'): SearchRequest {
  const body: JsonObject = readObject(json, 'struct SearchRequest');
  const { vector, using } = readSearchVector(body.vector, path);
  const limitKey = body.limit === undefined ? 'top' : 'limit';
  if (body[limitKey] === undefined) throw missingField('limit');
  const offset = readOptionalUnsigned(body, 'offset') ?? 0;
  const scoreThreshold = readOptionalNumber(body, 'score_threshold');
  const filter = readFilter(body);
  const options = parseReadOptions(body, { payload: false, vector: false });
  const limit = readLimit(body, limitKey, 0, path);
  return {
    ...readIdfParams(body),
    vector,
    using,
    limit,
    offset,
    ...options,
    ...(filter === undefined ? {} : { filter }),
    ...(scoreThreshold === undefined ? {} : { scoreThreshold }),
    ...readSearchParams(body, path),
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
