/** @module Vector edits on existing points: `PUT /points/vectors` (update) and `POST /points/vectors/delete`. */
import type { Hono } from 'hono';
import { requireWriteAccess } from './auth.js';
import { readCollectionName } from './assert-collection-name.js';
import { respondResult } from './envelope.js';
import { parseDeleteVectors, parseUpdateVectors } from './parse-vector-ops.js';
import type { QdrantEnv } from './qdrant-env.js';
import { parseUpdateParams } from './query-params.js';
import { readJsonBody } from './request-body.js';
import { answerUpdate } from './update-operations.js';

export function registerVectorRoutes(app: Hono<QdrantEnv>): void {
  app.put('/collections/:name/points/vectors', requireWriteAccess, async (c) => {
    const name = readCollectionName(c);
    const points = parseUpdateVectors(await readJsonBody(c));
    const { wait } = parseUpdateParams(c);
    return respondResult(c, answerUpdate(c.get('engine').collection(name).updateVectors(points), wait));
  });

  app.post('/collections/:name/points/vectors/delete', requireWriteAccess, async (c) => {
    const name = readCollectionName(c);
    const { selector, names } = parseDeleteVectors(await readJsonBody(c));
    const { wait } = parseUpdateParams(c);
    const outcome = c.get('engine').collection(name).deleteVectors(selector, names);
    return respondResult(c, answerUpdate(outcome, wait));
  });
}
