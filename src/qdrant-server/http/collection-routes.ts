/** @module Collection routes: list, info, exists, create, delete (qdrant-subset.md §1). */
import type { Hono } from 'hono';
import { requireWriteAccess } from './auth.js';
import { readCollectionName } from './assert-collection-name.js';
import { respondResult } from './envelope.js';
import { parseCollectionPatch } from './parse-collection-patch.js';
import { parseCollectionSpec } from './parse-collection-spec.js';
import type { QdrantEnv } from './qdrant-env.js';
import { parseTimeoutParam } from './query-params.js';
import { readJsonBody } from './request-body.js';

export function registerCollectionRoutes(app: Hono<QdrantEnv>): void {
  app.get('/collections', (c) => {
    const names = c.get('engine').listCollections();
    return respondResult(c, { collections: names.map((name) => ({ name })) });
  });

  app.get('/collections/:name', (c) => {
    const name = readCollectionName(c);
    return respondResult(c, c.get('engine').collection(name).info());
  });

  // Never 404: a missing collection is `exists: false`.
  app.get('/collections/:name/exists', (c) => {
    const name = readCollectionName(c);
    return respondResult(c, { exists: c.get('engine').exists(name) });
  });

  app.put('/collections/:name', requireWriteAccess, async (c) => {
    const name = readCollectionName(c, true);
    const spec = parseCollectionSpec(await readJsonBody(c));
    parseTimeoutParam(c);
    c.get('engine').createCollection(name, spec);
    return respondResult(c, true);
  });

  // Applied at once: Qdrant answers `true` once the new config is stored.
  app.patch('/collections/:name', requireWriteAccess, async (c) => {
    const name = readCollectionName(c);
    const patch = parseCollectionPatch(await readJsonBody(c));
    parseTimeoutParam(c);
    c.get('engine').collection(name).updateConfig(patch);
    return respondResult(c, true);
  });

  // Deleting a missing collection answers `false` with 200, as Qdrant does.
  app.delete('/collections/:name', requireWriteAccess, (c) => {
    const name = readCollectionName(c);
    parseTimeoutParam(c);
    return respondResult(c, c.get('engine').deleteCollection(name));
  });
}
