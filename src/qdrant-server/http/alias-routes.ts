/** @module Alias routes: change aliases in one batch, list all aliases, list one collection's (qdrant-hybrid.md §4). */
import type { Hono } from 'hono';
import type { AliasAction } from '../engine/engine-api.js';
import { formatError } from '../qdrant-error.js';
import { readCollectionName } from './assert-collection-name.js';
import { requireWriteAccess } from './auth.js';
import { invalidType, isJsonObject, missingField, readObject } from './body-shape.js';
import { respondResult } from './envelope.js';
import type { QdrantEnv } from './qdrant-env.js';
import { parseTimeoutParam } from './query-params.js';
import { readJsonBody } from './request-body.js';

const NO_VARIANT = 'data did not match any variant of untagged enum AliasOperations';

function readName(body: Record<string, unknown>, key: string): string {
  const value = body[key];
  if (typeof value !== 'string') throw formatError(NO_VARIANT);
  return value;
}

/** One action: `{create_alias: {collection_name, alias_name}}`, `{delete_alias: {alias_name}}` or `{rename_alias: {old_alias_name, new_alias_name}}`. */
function parseAliasAction(value: unknown): AliasAction {
  if (!isJsonObject(value)) throw formatError(NO_VARIANT);
  if (isJsonObject(value.create_alias)) {
    const create = value.create_alias;
    return {
      kind: 'create',
      alias: readName(create, 'alias_name'),
      collection: readName(create, 'collection_name'),
    };
  }
  if (isJsonObject(value.delete_alias))
    return { kind: 'delete', alias: readName(value.delete_alias, 'alias_name') };
  if (isJsonObject(value.rename_alias)) {
    const rename = value.rename_alias;
    return {
      kind: 'rename',
      from: readName(rename, 'old_alias_name'),
      to: readName(rename, 'new_alias_name'),
    };
  }
  throw formatError(NO_VARIANT);
}

/** `{actions: [...]}` (ChangeAliasesOperation). */
export function parseAliasActions(json: unknown): AliasAction[] {
  const body = readObject(json, 'struct ChangeAliasesOperation');
  if (body.actions === undefined) throw missingField('actions');
  if (!Array.isArray(body.actions)) throw invalidType(body.actions, 'a sequence');
  return body.actions.map(parseAliasAction);
}

export function registerAliasRoutes(app: Hono<QdrantEnv>): void {
  app.post('/collections/aliases', requireWriteAccess, async (c) => {
    const actions = parseAliasActions(await readJsonBody(c));
    parseTimeoutParam(c);
    c.get('engine').updateAliases(actions);
    return respondResult(c, true);
  });

  app.get('/aliases', (c) => respondResult(c, { aliases: c.get('engine').listAliases() }));

  // Not resolved and never 404: the aliases whose target has exactly this name.
  app.get('/collections/:name/aliases', (c) => {
    const name = readCollectionName(c);
    return respondResult(c, { aliases: c.get('engine').collectionAliases(name) });
  });
}
