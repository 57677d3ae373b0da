/** @module Payload operations: set, overwrite, delete keys, clear (qdrant-subset.md §2, "Payload operations"). */
import type { Context, Hono } from 'hono';
import { requireWriteAccess } from './auth.js';
import { readCollectionName } from './assert-collection-name.js';
import { respondResult } from './envelope.js';
import { readObject } from './body-shape.js';
import type { QdrantEnv } from './qdrant-env.js';
import { parseUpdateParams } from './query-params.js';
import { readJsonBody } from './request-body.js';
import { answerUpdate, UPDATE_OPERATIONS } from './update-operations.js';

/**
 * Runs one payload operation. With wait=true an explicitly named id that does not exist is a 404,
 * although the ids that do exist were still changed (Qdrant's `check_unprocessed_points`).
 */
function handle(operation: string) {
  const parse = UPDATE_OPERATIONS[operation] as NonNullable<(typeof UPDATE_OPERATIONS)[string]>;
  return async (c: Context<QdrantEnv>) => {
    const name = readCollectionName(c);
    const update = parse(readObject(await readJsonBody(c), 'struct PayloadOperation'));
    const { wait } = parseUpdateParams(c);
    return respondResult(c, answerUpdate(update(c.get('engine').collection(name)), wait));
  };
}

export function registerPayloadRoutes(app: Hono<QdrantEnv>): void {
  app.post('/collections/:name/points/payload', requireWriteAccess, handle('set_payload'));
  app.put('/collections/:name/points/payload', requireWriteAccess, handle('overwrite_payload'));
  app.post('/collections/:name/points/payload/delete', requireWriteAccess, handle('delete_payload'));
  app.post('/collections/:name/points/payload/clear', requireWriteAccess, handle('clear_payload'));
}
