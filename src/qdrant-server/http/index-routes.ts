/** @module Payload index routes: `PUT /collections/{name}/index`, `DELETE /collections/{name}/index/{field}` (qdrant-subset.md §1). */
import type { Hono } from 'hono';
import { assertJsonPath } from '../filter/index.js';
import { requireWriteAccess } from './auth.js';
import { readCollectionName } from './assert-collection-name.js';
import { respondResult } from './envelope.js';
import { parseCreateIndex } from './parse-field-schema.js';
import type { QdrantEnv } from './qdrant-env.js';
import { formatUpdateResult, parseUpdateParams } from './query-params.js';
import { readJsonBody } from './request-body.js';

export function registerIndexRoutes(app: Hono<QdrantEnv>): void {
  app.put('/collections/:name/index', requireWriteAccess, async (c) => {
    const name = readCollectionName(c);
    const { field, schema } = parseCreateIndex(await readJsonBody(c));
    const { wait } = parseUpdateParams(c);
    const outcome = c.get('engine').collection(name).createIndex(field, schema);
    return respondResult(c, formatUpdateResult(outcome.operationId, wait));
  });

  app.delete('/collections/:name/index/:field', requireWriteAccess, (c) => {
    const name = readCollectionName(c);
    const field = c.req.param('field');
    assertJsonPath(field);
    const { wait } = parseUpdateParams(c);
    const outcome = c.get('engine').collection(name).deleteIndex(field);
    return respondResult(c, formatUpdateResult(outcome.operationId, wait));
  });
}
