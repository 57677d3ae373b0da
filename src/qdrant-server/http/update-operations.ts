/**
 * @module The write operations by the names `/points/batch` gives them (UpdateOperation, `lib/api/src/rest/schema.rs`),
 * each parsed first into a prepared update and applied later, so a batch with one malformed operation changes
 * nothing. The single-operation routes (payload-routes.ts) use the same parsers.
 */
import type { CollectionEngine, UpdateOutcome } from '../engine/engine-api.js';
import { assertJsonPath } from '../filter/index.js';
import { notFound } from '../qdrant-error.js';
import {
  invalidType,
  isJsonObject,
  type JsonObject,
  missingField,
  readOptionalString,
} from './body-shape.js';
import { parsePayloadTarget, parsePointsSelector } from './parse-point-selector.js';
import { parseUpsert } from './parse-upsert.js';
import { parseDeleteVectors, parseUpdateVectors } from './parse-vector-ops.js';
import { formatUpdateResult } from './query-params.js';

/** An operation whose body was parsed and checked, waiting for its collection. */
export type PreparedUpdate = (collection: CollectionEngine) => UpdateOutcome;

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
 * With wait=true an id that does not exist is a 404, after the existing ones were changed (Qdrant's
 * `check_unprocessed_points`); with wait=false Qdrant applies later and the error is not reported.
 */
export function answerUpdate(outcome: UpdateOutcome, wait: boolean): unknown {
  const missing = outcome.missingIds[0];
  if (wait && missing !== undefined) throw notFound(`No point with id ${missing} found`);
  return formatUpdateResult(outcome.operationId, wait);
}

/** Each operation's parser, by its batch name. */
export const UPDATE_OPERATIONS: Readonly<Record<string, (body: JsonObject) => PreparedUpdate>> = {
  upsert(body) {
    const points = parseUpsert(body);
    return (collection) => collection.upsert(points);
  },
  delete(body) {
    const selector = parsePointsSelector(body);
    return (collection) => collection.deletePoints(selector);
  },
  set_payload(body) {
    const payload = readPayload(body);
    const key = readOptionalString(body, 'key');
    if (key !== undefined) assertJsonPath(key);
    const target = parsePayloadTarget(body);
    return (collection) => collection.setPayload(target, payload, key);
  },
  overwrite_payload(body) {
    const payload = readPayload(body);
    const target = parsePayloadTarget(body);
    return (collection) => collection.overwritePayload(target, payload);
  },
  delete_payload(body) {
    const keys = readKeys(body);
    const target = parsePayloadTarget(body);
    return (collection) => collection.deletePayloadKeys(target, keys);
  },
  clear_payload(body) {
    const selector = parsePointsSelector(body);
    return (collection) => collection.clearPayload(selector);
  },
  update_vectors(body) {
    const points = parseUpdateVectors(body);
    return (collection) => collection.updateVectors(points);
  },
  delete_vectors(body) {
    const { selector, names } = parseDeleteVectors(body);
    return (collection) => collection.deleteVectors(selector, names);
  },
};
