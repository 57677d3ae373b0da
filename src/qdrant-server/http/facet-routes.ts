/** @module `POST /collections/{name}/facet`: value counts of an indexed key (FacetRequest, `lib/api/src/rest/schema.rs`). */
import type { Hono } from 'hono';
import { assertJsonPath } from '../filter/index.js';
import { validationError } from '../qdrant-error.js';
import { readCollectionName } from './assert-collection-name.js';
import {
  invalidType,
  missingField,
  readObject,
  readOptionalBool,
  readOptionalUnsigned,
} from './body-shape.js';
import { respondResult } from './envelope.js';
import { readFilter } from './parse-read-options.js';
import type { QdrantEnv } from './qdrant-env.js';
import { parseReadParams } from './query-params.js';
import { readJsonBody } from './request-body.js';

/** `FacetParams::DEFAULT_LIMIT`. */
const DEFAULT_LIMIT = 10;

export function registerFacetRoutes(app: Hono<QdrantEnv>): void {
  // `exact` is accepted: the embedded store always counts exactly.
  app.post('/collections/:name/facet', async (c) => {
    const name = readCollectionName(c);
    const body = readObject(await readJsonBody(c), 'struct FacetRequest');
    if (body.key === undefined) throw missingField('key');
    if (typeof body.key !== 'string') throw invalidType(body.key, 'a string');
    assertJsonPath(body.key);
    const limit = readOptionalUnsigned(body, 'limit') ?? DEFAULT_LIMIT;
    if (limit < 1) {
      throw validationError([
        { path: 'facet_request.limit', message: `value ${limit} invalid, must be 1 or larger` },
      ]);
    }
    readOptionalBool(body, 'exact');
    const filter = readFilter(body);
    parseReadParams(c);
    const hits = c
      .get('engine')
      .collection(name)
      .facet({ key: body.key, limit, ...(filter === undefined ? {} : { filter }) });
    return respondResult(c, { hits });
  });
}
