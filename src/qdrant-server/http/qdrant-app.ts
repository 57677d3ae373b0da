/**
 * @module The embedded store's Qdrant-compatible REST API as a Hono app (qdrant-subset.md): middleware in Qdrant's
 * order (origin guard when keyless, CORS, path normalization, auth), the service routes, then one route group per file.
 */
import { Hono } from 'hono';
import { drainUnreadBody } from '../../runtime/drain-unread-body.js';
import type { StoreLogger } from '../store-logger.js';
import type { StoreEngine } from '../engine/engine-api.js';
import { registerAliasRoutes } from './alias-routes.js';
import { authMiddleware } from './auth.js';
import { registerBatchRoutes } from './batch-routes.js';
import { registerCollectionRoutes } from './collection-routes.js';
import { corsMiddleware } from './cors.js';
import { registerFacetRoutes } from './facet-routes.js';
import { respondError } from './envelope.js';
import { registerIndexRoutes } from './index-routes.js';
import { normalizePath } from './normalize-path.js';
import { guardOrigins } from './origin-guard.js';
import { registerPayloadRoutes } from './payload-routes.js';
import { registerPointReadRoutes } from './point-read-routes.js';
import { registerPointWriteRoutes } from './point-write-routes.js';
import type { QdrantEnv } from './qdrant-env.js';
import { registerRefusedRoutes } from './refused-routes.js';
import { registerServiceRoutes } from './service-routes.js';
import { registerVectorRoutes } from './vector-routes.js';

export interface QdrantAppOptions {
  readonly engine: StoreEngine;
  /** Full-access key; when this or `readOnlyApiKey` is set, every route but the probes needs a key. */
  readonly apiKey?: string | undefined;
  /** A key that may only read. */
  readonly readOnlyApiKey?: string | undefined;
  /**
   * Without a key, web origins besides loopback ones (`http://localhost:8000`) that may call the store from a
   * browser. With a key every origin may, as in Qdrant: the key is what protects the data then.
   */
  readonly corsOrigins?: readonly string[] | undefined;
  /** Where unexpected (500) errors are logged. */
  readonly logger?: StoreLogger | undefined;
}

/** Builds the app; serve it with @hono/node-server or call `app.request()` in tests. */
export function createQdrantApp(options: QdrantAppOptions): Hono<QdrantEnv> {
  const app = new Hono<QdrantEnv>({ getPath: normalizePath });
  const keyless = !options.apiKey && !options.readOnlyApiKey;
  // First, so that a body left unread by any early answer (403, 401, 404) is read before it goes out.
  app.use(drainUnreadBody());
  if (keyless) app.use(guardOrigins(options.corsOrigins ?? []));
  app.use(corsMiddleware());
  app.use(async (c, next) => {
    c.set('startedAt', performance.now());
    c.set('engine', options.engine);
    await next();
  });
  app.use(authMiddleware(options));
  registerServiceRoutes(app);
  // Before the collection routes, so `/collections/aliases` is not read as a collection named "aliases".
  registerAliasRoutes(app);
  registerCollectionRoutes(app);
  registerIndexRoutes(app);
  registerPointWriteRoutes(app);
  registerPointReadRoutes(app);
  registerPayloadRoutes(app);
  registerVectorRoutes(app);
  registerBatchRoutes(app);
  registerFacetRoutes(app);
  registerRefusedRoutes(app);
  // actix answers an unknown route with an empty 404.
  app.notFound((c) => c.body(null, 404));
  app.onError((error, c) => respondError(c, error, options.logger));
  return app;
}
