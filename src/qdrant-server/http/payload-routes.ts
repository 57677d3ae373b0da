/** @module Payload operations: set, overwrite, delete keys, clear (qdrant-subset.md §2, "Payload operations"). */
import type { Context, Hono } from 'hono';
import type { CollectionEngine, UpdateOutcome } from '../engine/engine-api.js';
import { assertJsonPath } from '../filter/index.js';
import { notFound } from '../qdrant-error.js';
import { requireWriteAccess } from './auth.js';
import { readCollectionName } from './assert-collection-name.js';
import { respondResult } from './envelope.js';
import {
  invalidType,
  isJsonObject,
  type JsonObject,
  missingField,
  readObject,
  readOptionalString,
} from './body-shape.js';
import { parsePayloadTarget, parsePointsSelector } from './parse-point-selector.js';
import type { QdrantEnv } from './qdrant-env.js';
import { formatUpdateResult, parseUpdateParams } from './query-params.js';
import { readJsonBody } from './request-body.js';

type Operation = (collection: CollectionEngine, body: JsonObject) => UpdateOutcome;

function readPayload(body: JsonObject): JsonObject {
  if (body.payload === undefined) throw missingField('payload');
  if (!isJsonObject(body.payload)) throw invalidType(body.payload, 'a map');
  return body.payload;
}

function readKeys(body: JsonObject): string[] {
  if (body.keys === undefined) throw missingField('keys');
  if (!Array.isArray(body.keys)) throw invalidType(body.keys, 'a sequence');
  return body.keys.map((key) => {
    if (typeof key !== 'string') throw invalidType(key, 'a string');
    assertJsonPath(key);
    return key;
  });
}

/**
 * Runs one payload operation. With wait=true an explicitly named id that does not exist is a 404,
 * although the ids that do exist were still changed (Qdrant's `check_unprocessed_points`).
 */
function handle(operation: Operation) {
  return async (c: Context<QdrantEnv>) => {
    const name = readCollectionName(c);
    const body = readObject(await readJsonBody(c), 'struct PayloadOperation');
    const { wait } = parseUpdateParams(c);
    const outcome = operation(c.get('engine').collection(name), body);
    const missing = outcome.missingIds[0];
    if (wait && missing !== undefined) throw notFound(`No point with id ${missing} found`);
    return respondResult(c, formatUpdateResult(outcome.operationId, wait));
  };
}

export function registerPayloadRoutes(app: Hono<QdrantEnv>): void {
  app.post(
    '/collections/:name/points/payload',
    requireWriteAccess,
    handle((collection, body) => {
      const payload = readPayload(body);
      const key = readOptionalString(body, 'key');
      if (key !== undefined) assertJsonPath(key);
      return collection.setPayload(parsePayloadTarget(body), payload, key);
    }),
  );

  app.put(
    '/collections/:name/points/payload',
    requireWriteAccess,
    handle((collection, body) => {
      const payload = readPayload(body);
      return collection.overwritePayload(parsePayloadTarget(body), payload);
    }),
  );

  app.post(
    '/collections/:name/points/payload/delete',
    requireWriteAccess,
    handle((collection, body) => {
      const keys = readKeys(body);
      return collection.deletePayloadKeys(parsePayloadTarget(body), keys);
    }),
  );

  app.post(
    '/collections/:name/points/payload/clear',
    requireWriteAccess,
    handle((collection, body) => collection.clearPayload(parsePointsSelector(body))),
  );
}
