/**
 * @module `POST /points/query` body, QueryRequestInternal (qdrant-subset.md §3): nearest by vector or point id,
 * RRF/DBSF fusion over prefetches, or no query (id order). Other query kinds are reported as unsupported.
 */
import type {
  MmrParams,
  PrefetchRequest,
  QueryGroupsRequest,
  QueryInput,
  QueryRequest,
} from '../engine/engine-api.js';
import { assertJsonPath } from '../filter/index.js';
import { parseJsonPointId } from '../engine/point-id.js';
import {
  badRequest,
  type FieldViolation,
  formatError,
  unsupported,
  validationError,
} from '../qdrant-error.js';
import {
  invalidType,
  isJsonObject,
  type JsonObject,
  missingField,
  readDenseVector,
  readObject,
  readOptionalNumber,
  readOptionalString,
  readOptionalUnsigned,
} from './body-shape.js';
import { readLimit } from './parse-limit.js';
import { parseReadOptions, readFilter } from './parse-read-options.js';
import { parseOrderBy } from './parse-scroll.js';
import { readIdfParams, readSearchParams } from './parse-search-params.js';
import { isSparseShape, readSparseVector } from './read-sparse-vector.js';

/** RRF's k when the client does not give one (`reciprocal_rank_fusion.rs::DEFAULT_RRF_K`). */
const DEFAULT_RRF_K = 2;
/** Qdrant's cap on `mmr.candidates_limit` ("artificial maximum, to avoid too expensive query"). */
const MAX_MMR_CANDIDATES = 16_384;
const UNSUPPORTED_QUERIES = ['recommend', 'discover', 'context', 'formula', 'relevance_feedback'];

function parseVectorOrId(value: unknown, path: string): Extract<QueryInput, { kind: 'nearest' | 'point' }> {
  if (isSparseShape(value)) return { kind: 'nearest', vector: readSparseVector(value, path) };
  if (Array.isArray(value)) {
    if (value.some(Array.isArray)) throw unsupported('Multivector queries');
    return { kind: 'nearest', vector: readDenseVector(value) };
  }
  if (typeof value === 'number' || typeof value === 'string')
    return { kind: 'point', id: parseJsonPointId(value) };
  throw formatError('data did not match any variant of untagged enum VectorInput');
}

/** `mmr: {diversity?, candidates_limit?}` with Qdrant's validator ranges (`lib/api/src/rest/schema.rs::Mmr`). */
function parseMmr(value: unknown, path: string): MmrParams {
  const mmr = readObject(value, 'struct Mmr');
  const diversity = readOptionalNumber(mmr, 'diversity');
  const candidatesLimit = readOptionalUnsigned(mmr, 'candidates_limit');
  const violations: FieldViolation[] = [];
  if (diversity !== undefined && (diversity < 0 || diversity > 1)) {
    violations.push({
      path: `${path}.diversity`,
      message: `value ${diversity} invalid, must be from 0.0 to 1.0`,
    });
  }
  if (candidatesLimit !== undefined && candidatesLimit > MAX_MMR_CANDIDATES) {
    violations.push({
      path: `${path}.candidates_limit`,
      message: `value ${candidatesLimit} invalid, must be ${MAX_MMR_CANDIDATES} or smaller`,
    });
  }
  if (violations.length > 0) throw validationError(violations);
  return {
    ...(diversity === undefined ? {} : { diversity }),
    ...(candidatesLimit === undefined ? {} : { candidatesLimit }),
  };
}

function parseFusion(value: unknown): QueryInput {
  if (value === 'rrf') return { kind: 'rrf', k: DEFAULT_RRF_K };
  if (value === 'dbsf') return { kind: 'dbsf' };
  throw formatError(`unknown variant \`${String(value)}\`, expected \`rrf\` or \`dbsf\``);
}

function parseQueryInput(value: unknown, path: string): QueryInput | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isJsonObject(value) || isSparseShape(value)) return parseVectorOrId(value, `${path}.query`);
  if ('nearest' in value) {
    const nearest = parseVectorOrId(value.nearest, `${path}.query.nearest`);
    if (value.mmr === undefined || value.mmr === null) return nearest;
    return { ...nearest, mmr: parseMmr(value.mmr, `${path}.query.mmr`) };
  }
  if ('fusion' in value) return parseFusion(value.fusion);
  if ('rrf' in value) {
    const rrf = readObject(value.rrf, 'struct Rrf');
    const weights = rrf.weights;
    if (weights !== undefined && weights !== null) {
      if (!Array.isArray(weights)) throw invalidType(weights, 'a sequence');
      for (const weight of weights) if (typeof weight !== 'number') throw invalidType(weight, 'f32');
    }
    const k = readOptionalUnsigned(rrf, 'k') ?? DEFAULT_RRF_K;
    // `Rrf.k` is validated `range(min = 1)` (lib/api/src/rest/schema.rs): k = 0 would score the top rank 1/0.
    if (k < 1)
      throw validationError([{ path: 'query.rrf.k', message: `value ${k} invalid, must be 1 or larger` }]);
    return {
      kind: 'rrf',
      k,
      ...(Array.isArray(weights) ? { weights: weights as number[] } : {}),
    };
  }
  if ('order_by' in value) {
    const orderBy = parseOrderBy(value.order_by);
    if (orderBy === undefined) throw invalidType(value.order_by, 'a string or struct OrderBy');
    return { kind: 'order_by', orderBy };
  }
  if ('sample' in value) {
    if (value.sample !== 'random') {
      throw formatError(`unknown variant \`${String(value.sample)}\`, expected \`random\``);
    }
    return { kind: 'sample' };
  }
  const kind = UNSUPPORTED_QUERIES.find((key) => key in value);
  if (kind !== undefined) throw unsupported(`The \`${kind}\` query`);
  throw formatError('data did not match any variant of untagged enum QueryInterface');
}

/** `using` (the vector name; `""` when absent) and the keys the embedded store does not implement. */
function readUsing(body: JsonObject): { using?: string } {
  const using = readOptionalString(body, 'using');
  if (body.lookup_from !== undefined && body.lookup_from !== null) throw unsupported('lookup_from');
  return using === undefined ? {} : { using };
}

function readPrefetchList(body: JsonObject, path: string): PrefetchRequest[] {
  const value = body.prefetch;
  if (value === undefined || value === null) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.map((item, i) => parsePrefetch(item, `${path}.prefetch[${i}]`));
}

/** MMR is served at the root of a query only: in a prefetch or a groups query it is refused, not ignored. */
function refuseMmr(query: QueryInput | undefined, where: string): void {
  if ((query?.kind === 'nearest' || query?.kind === 'point') && query.mmr !== undefined) {
    throw unsupported(`MMR (nearest.mmr) in ${where}`);
  }
}

function parsePrefetch(json: unknown, path: string): PrefetchRequest {
  const body = readObject(json, 'struct Prefetch');
  const using = readUsing(body);
  const query = parseQueryInput(body.query, path);
  refuseMmr(query, 'a prefetch');
  const prefetch = readPrefetchList(body, path);
  const filter = readFilter(body);
  const scoreThreshold = readOptionalNumber(body, 'score_threshold');
  const limit = readLimit(body, 'limit', 10, path);
  return {
    prefetch,
    limit,
    ...using,
    ...readIdfParams(body),
    ...(query === undefined ? {} : { query }),
    ...(filter === undefined ? {} : { filter }),
    ...(scoreThreshold === undefined ? {} : { scoreThreshold }),
    ...readSearchParams(body, path),
  };
}

/** Qdrant's semantic checks, run after the shape and the validator have passed. */
function checkQueryLogic(request: QueryRequest | PrefetchRequest): void {
  if (request.query === undefined && request.prefetch.length > 0) {
    throw badRequest(
      "A query is needed to merge the prefetches. Can't have prefetches without defining a query.",
    );
  }
  // Every level, prefetches too: Qdrant validates each prefetch as it converts it (`try_into_shard_prefetch`).
  if (request.query === undefined && request.scoreThreshold !== undefined) {
    throw badRequest(
      "A query is needed to use the score_threshold. Can't have score_threshold without defining a query.",
    );
  }
  if (request.query?.kind === 'order_by' && request.scoreThreshold !== undefined) {
    throw badRequest("Can't use score_threshold with an order_by query.");
  }
  // `collection_query.rs::validation`: a fusion ranks its prefetches' lists, so a vector name means nothing.
  const isFusion = request.query?.kind === 'rrf' || request.query?.kind === 'dbsf';
  if (isFusion && request.using !== undefined && request.using !== '') {
    throw badRequest("Fusion queries cannot be combined with the 'using' field.");
  }
  for (const inner of request.prefetch) checkQueryLogic(inner);
}

/** Parses one query request; `path` prefixes validator field errors (`internal`, `searches[0].internal`). */
export function parseQueryRequest(json: unknown, path = 'internal'): QueryRequest {
  const body = readObject(json, 'struct QueryRequest');
  const using = readUsing(body);
  const query = parseQueryInput(body.query, path);
  const prefetch = readPrefetchList(body, path);
  const filter = readFilter(body);
  const scoreThreshold = readOptionalNumber(body, 'score_threshold');
  const offset = readOptionalUnsigned(body, 'offset') ?? 0;
  const options = parseReadOptions(body, { payload: false, vector: false });
  const limit = readLimit(body, 'limit', 10, path);
  const request: QueryRequest = {
    prefetch,
    limit,
    offset,
    ...using,
    ...readIdfParams(body),
    ...options,
    ...(query === undefined ? {} : { query }),
    ...(filter === undefined ? {} : { filter }),
    ...(scoreThreshold === undefined ? {} : { scoreThreshold }),
    ...readSearchParams(body, path),
  };
  checkQueryLogic(request);
  return request;
}

/**
 * `POST /points/query/groups`: a query request plus `group_by` (a payload key), `group_size` (default 3) and
 * `limit`, the number of groups (default 10); there is no `offset`.
 */
export function parseQueryGroupsRequest(json: unknown): QueryGroupsRequest {
  const path = 'group_request';
  const body = readObject(json, 'struct QueryGroupsRequest');
  if (body.group_by === undefined) throw missingField('group_by');
  if (typeof body.group_by !== 'string') throw invalidType(body.group_by, 'a string');
  assertJsonPath(body.group_by);
  if (body.with_lookup !== undefined && body.with_lookup !== null) throw unsupported('with_lookup');
  const groupSize = readOptionalUnsigned(body, 'group_size') ?? 3;
  if (groupSize < 1) {
    throw validationError([
      { path: `${path}.group_size`, message: `value ${groupSize} invalid, must be 1 or larger` },
    ]);
  }
  const { offset: _offset, ...request } = parseQueryRequest({ ...body, offset: undefined }, path);
  refuseMmr(request.query, 'a groups query');
  return { ...request, groupBy: body.group_by, groupSize };
}

/** `POST /points/query/batch`: `{searches: [...]}`; every request is checked before any runs. */
export function parseQueryBatch(json: unknown): QueryRequest[] {
  const body = readObject(json, 'struct QueryRequestBatch');
  if (!Array.isArray(body.searches)) {
    throw body.searches === undefined ? missingField('searches') : invalidType(body.searches, 'a sequence');
  }
  return body.searches.map((search, i) => parseQueryRequest(search, `searches[${i}].internal`));
}
