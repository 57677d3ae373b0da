/**
 * @module The point reads hybrid recall makes (retrieve by id, search, query, count), asked by a caller in the same
 * process (the memory service, over the store thread's port): the body REST takes in, the `result` REST answers,
 * without HTTP or JSON between the threads (about a third of the store thread's time per recall at 30,000
 * chunks, docs/growth.md). Parsed and answered as point-read-routes.ts does, so both give the same result.
 */
import type { CollectionEngine, StoreEngine } from '../engine/engine-api.js';
import { isQdrantError, notFound, QdrantError } from '../qdrant-error.js';
import type { StoreLogger } from '../store-logger.js';
import { assertCollectionName } from './assert-collection-name.js';
import { missingField, readObject, readPointIds } from './body-shape.js';
import { formatRecord, formatScoredPoint } from './point-json.js';
import { parseQueryRequest } from './parse-query.js';
import { parseReadOptions } from './parse-read-options.js';
import { parseCountRequest, parseScrollRequest } from './parse-scroll.js';
import { parseSearchRequest } from './parse-search.js';

/** Which route's read: `POST /collections/{name}/points`, `.../points/search`, `.../query`, `.../count`, `.../scroll`. */
export type PointReadKind = 'retrieve' | 'search' | 'query' | 'count' | 'scroll';

/** One read: the route and its JSON body, as a REST client would send it. */
export interface PointReadRequest {
  readonly kind: PointReadKind;
  readonly body: unknown;
}

/**
 * The `result` the route answers for `request` on `collection` (scores and vectors in their shortest f32 form,
 * as REST prints them). Throws the QdrantError the route would answer with; anything else as a 500, logged.
 */
export async function runPointRead(
  engine: StoreEngine,
  collection: string,
  request: PointReadRequest,
  logger?: StoreLogger,
): Promise<unknown> {
  try {
    // Plain objects and arrays, as REST's JSON.parse gives (stored payloads are null-prototype objects).
    const body = readAsJson(request.body);
    return structuredClone(await answerPointRead(engine, collection, { kind: request.kind, body }));
  } catch (error) {
    if (isQdrantError(error)) throw error;
    const message = error instanceof Error ? error.message : String(error);
    logger?.error({ err: error, collection }, 'embedded store posted read failed');
    throw new QdrantError(500, `Service internal error: ${message}`);
  }
}

async function answerPointRead(
  engine: StoreEngine,
  collection: string,
  request: PointReadRequest,
): Promise<unknown> {
  // The route's order: the name, then the body, then the collection (a missing one is a 404 after a valid body).
  const name = assertCollectionName(collection);
  switch (request.kind) {
    case 'retrieve': {
      const body = readObject(request.body, 'struct PointRequest');
      if (body.ids === undefined) throw missingField('ids');
      const ids = readPointIds(body.ids);
      const options = parseReadOptions(body, { payload: false, vector: false });
      return engine.collection(name).retrieve(ids, options).map(formatRecord);
    }
    case 'search': {
      const search = parseSearchRequest(request.body);
      const target = engine.collection(name);
      const points = await target.search(search);
      assertStillThere(engine, name, target);
      return points.map(formatScoredPoint);
    }
    case 'query': {
      const query = parseQueryRequest(request.body);
      const target = engine.collection(name);
      const points = await target.query(query);
      assertStillThere(engine, name, target);
      return { points: points.map(formatScoredPoint) };
    }
    case 'scroll': {
      // The stale-parts sweep after each start pages through every part (~900,000 at 100,000 chunks) beside recall.
      const scroll = parseScrollRequest(request.body);
      const target = engine.collection(name);
      const page = await target.scroll(scroll);
      assertStillThere(engine, name, target);
      return { points: page.points.map(formatRecord), next_page_offset: page.nextPageOffset };
    }
    case 'count': {
      const filter = parseCountRequest(request.body);
      return { count: engine.collection(name).count(filter) };
    }
    default:
      throw new QdrantError(400, `Unknown point read: ${String((request as { kind: unknown }).kind)}`);
  }
}

/**
 * A read the engine answered after yielding the thread: the collection deleted meanwhile answers the route's 404,
 * not the dropped collection's empty page (a scroll-based job racing a delete would end as if it had succeeded).
 */
function assertStillThere(engine: StoreEngine, name: string, target: CollectionEngine): void {
  // engine.collection throws the route's 404 for a name gone; a new collection under the name is not the one read.
  if (engine.collection(name) !== target) throw notFound(`Collection \`${target.name}\` doesn't exist!`);
}

/**
 * `body` as REST's JSON.parse would see the caller's JSON.stringify of it: NaN and ±Infinity become null (a NaN in a
 * vector is REST's 400, not NaN scores), a Date its ISO string, -0 zero. Walked first: bodies that are JSON already
 * (every body recall sends) are kept as they are, without the round trip's ~74 µs for a 512-d query.
 */
function readAsJson(body: unknown): unknown {
  return body === undefined || isJsonExact(body) ? body : JSON.parse(JSON.stringify(body));
}

/** Whether JSON.parse(JSON.stringify(value)) deep-equals `value` (an undefined property counts as absent). */
function isJsonExact(value: unknown): boolean {
  if (typeof value === 'string' || typeof value === 'boolean' || value === null) return true;
  if (typeof value === 'number') return Number.isFinite(value) && !Object.is(value, -0);
  if (typeof value !== 'object') return false;
  if (Array.isArray(value)) {
    // A hole or an undefined element is null in JSON.
    for (let i = 0; i < value.length; i++) if (!isJsonExact(value[i])) return false;
    return true;
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return false;
  const record = value as Record<string, unknown>;
  if (typeof record.toJSON === 'function') return false;
  for (const key of Object.keys(record)) {
    const field = record[key];
    if (field !== undefined && !isJsonExact(field)) return false;
  }
  return true;
}
