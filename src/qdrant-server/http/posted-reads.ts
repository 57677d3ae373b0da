/**
 * @module The point reads hybrid recall makes (retrieve by id, search, query, count), asked by a caller in the same
 * process (the memory service, over the store thread's port): the body REST takes in, the `result` REST answers,
 * without HTTP or JSON between the threads (about a third of the store thread's time per recall at 30,000
 * chunks, docs/growth.md). Parsed and answered as point-read-routes.ts does, so both give the same result.
 */
import type { StoreEngine } from '../engine/engine-api.js';
import { isQdrantError, QdrantError } from '../qdrant-error.js';
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
    return structuredClone(await answerPointRead(engine, collection, request));
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
      return (await engine.collection(name).search(search)).map(formatScoredPoint);
    }
    case 'query': {
      const query = parseQueryRequest(request.body);
      return { points: (await engine.collection(name).query(query)).map(formatScoredPoint) };
    }
    case 'scroll': {
      // The stale-parts sweep after each start pages through every part (~900,000 at 100,000 chunks) beside recall.
      const scroll = parseScrollRequest(request.body);
      const page = await engine.collection(name).scroll(scroll);
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
