/** @module Point writes: upsert (`PUT /points`) and delete (`POST /points/delete`) (qdrant-subset.md §2). */
import type { Hono } from 'hono';
import { requireWriteAccess } from './auth.js';
import { readCollectionName } from './assert-collection-name.js';
import { respondResult } from './envelope.js';
import { readObject } from './body-shape.js';
import { parsePointsSelector } from './parse-point-selector.js';
import { parseUpsert } from './parse-upsert.js';
import type { QdrantEnv } from './qdrant-env.js';
import { formatUpdateResult, parseUpdateParams } from './query-params.js';
import { readJsonBody } from './request-body.js';

export function registerPointWriteRoutes(app: Hono<QdrantEnv>): void {
  // Applied synchronously even with wait=false (allowed by §2); the reply still says `acknowledged`.
  app.put('/collections/:name/points', requireWriteAccess, async (c) => {
    const name = readCollectionName(c);
    const points = parseUpsert(await readJsonBody(c));
    const { wait } = parseUpdateParams(c);
    const outcome = c.get('engine').collection(name).upsert(points);
    return respondResult(c, formatUpdateResult(outcome.operationId, wait));
  });

  // Missing ids are ignored, as in Qdrant.
  app.post('/collections/:name/points/delete', requireWriteAccess, async (c) => {
    const name = readCollectionName(c);
    const selector = parsePointsSelector(readObject(await readJsonBody(c), 'PointsSelector'));
    const { wait } = parseUpdateParams(c);
    const outcome = c.get('engine').collection(name).deletePoints(selector);
    return respondResult(c, formatUpdateResult(outcome.operationId, wait));
  });
}
