/**
 * @module Qdrant's operations the embedded store does not serve (snapshots, cluster, shards, telemetry, …): each answers
 * Qdrant's error envelope, 400 naming the operation, instead of an empty 404 that reads as "collection not found".
 */
import type { Hono } from 'hono';
import { unsupported } from '../qdrant-error.js';
import { QDRANT_OPERATIONS } from './qdrant-operations.js';
import type { QdrantEnv } from './qdrant-env.js';

/** `/collections/{collection_name}/x` → `/collections/:collection_name/x` (Hono's parameter syntax). */
function toHonoPath(template: string): string {
  return template.replace(/\{([a-z_]+)\}/g, ':$1');
}

/** Registers the refusals; call after the served routes, so a served path is never shadowed. */
export function registerRefusedRoutes(app: Hono<QdrantEnv>): void {
  for (const operation of QDRANT_OPERATIONS) {
    if (operation.served) continue;
    const feature = `The \`${operation.operationId}\` operation (${operation.method} ${operation.path})`;
    app.on(operation.method, toHonoPath(operation.path), () => {
      throw unsupported(feature);
    });
  }
}
