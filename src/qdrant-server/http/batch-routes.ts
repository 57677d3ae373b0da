/**
 * @module `POST /collections/{name}/points/batch`: a list of write operations applied in order, each answered with
 * its own UpdateResult. Every operation is parsed before any runs, so a malformed one changes nothing; an error
 * while applying (a wrong dimension, a missing id with wait) stops the batch after the operations before it, as
 * Qdrant's one-after-the-other submission does.
 */
import type { Hono } from 'hono';
import { formatError } from '../qdrant-error.js';
import { requireWriteAccess } from './auth.js';
import { readCollectionName } from './assert-collection-name.js';
import { invalidType, missingField, readObject } from './body-shape.js';
import { respondResult } from './envelope.js';
import type { QdrantEnv } from './qdrant-env.js';
import { parseUpdateParams } from './query-params.js';
import { readJsonBody } from './request-body.js';
import { answerUpdate, type PreparedUpdate, UPDATE_OPERATIONS } from './update-operations.js';

function parseOperation(value: unknown): PreparedUpdate {
  const operation = readObject(value, 'UpdateOperation');
  const names = Object.keys(operation);
  const name = names[0];
  const parse = name === undefined ? undefined : UPDATE_OPERATIONS[name];
  if (names.length !== 1 || parse === undefined || !Object.hasOwn(UPDATE_OPERATIONS, name as string)) {
    throw formatError('data did not match any variant of untagged enum UpdateOperation');
  }
  return parse(readObject(operation[name as string], `struct ${name}`));
}

export function registerBatchRoutes(app: Hono<QdrantEnv>): void {
  app.post('/collections/:name/points/batch', requireWriteAccess, async (c) => {
    const name = readCollectionName(c);
    const body = readObject(await readJsonBody(c), 'struct UpdateOperations');
    if (body.operations === undefined) throw missingField('operations');
    if (!Array.isArray(body.operations)) throw invalidType(body.operations, 'a sequence');
    const updates = body.operations.map(parseOperation);
    const { wait } = parseUpdateParams(c);
    const collection = c.get('engine').collection(name);
    return respondResult(
      c,
      updates.map((update) => answerUpdate(update(collection), wait)),
    );
  });
}
