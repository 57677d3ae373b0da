/** @module The memory service's HTTP app: middleware in order, then every route (the public route list). */
import { Hono } from 'hono';
import { authenticate, readPresentedKey } from '../auth/api-key-auth.js';
import type { ServiceDeps } from '../core/service-deps.js';
import { drainRefusedBody } from '../runtime/drain-refused-body.js';
import { drainUnreadBody } from '../runtime/drain-unread-body.js';
import { createErrorHandler, renderNotFound } from './error-handler.js';
import { limitBody } from './limit-body.js';
import { guardLoopbackHosts } from './loopback-guard.js';
import { registerForgetRoutes } from './routes/forget-route.js';
import { registerHealthRoutes } from './routes/health-routes.js';
import { registerMcpRoutes } from './routes/mcp-route.js';
import { registerPeopleRoutes } from './routes/people-routes.js';
import { registerRetrieveRoute } from './routes/retrieve-route.js';
import { registerSaveRoute } from './routes/save-route.js';
import { registerStatsRoute } from './routes/stats-route.js';
import { isUiPath, registerUiRoutes } from './routes/ui-route.js';
import { registerViewerRoutes } from './routes/viewer-routes.js';
import type { ServiceEnv } from './service-env.js';

/** Paths anyone may call: liveness, readiness and metrics carry no memories (nor does the viewer's page, see isUiPath). */
const PUBLIC_PATHS = new Set(['/health', '/ready', '/metrics']);

/** Builds the app; testable in-process with `app.request()`. */
export function createServiceApp(deps: ServiceDeps): Hono<ServiceEnv> {
  const app = new Hono<ServiceEnv>();
  let routePaths: Set<string> | undefined;

  app.use(async (c, next) => {
    const started = performance.now();
    await next();
    // Requests refused by middleware (401, 413) never reach a route; label them by path when it is a route.
    routePaths ??= new Set(app.routes.map((r) => r.path).filter((path) => path !== '/*'));
    const route = routePaths.has(c.req.routePath)
      ? c.req.routePath
      : routePaths.has(c.req.path)
        ? c.req.path
        : 'unmatched';
    deps.metrics.httpRequests.inc({ route, method: c.req.method, status: String(c.res.status) });
    deps.metrics.httpDuration.observe({ route }, (performance.now() - started) / 1000);
  });
  // Before the limit: a body refused as too large is still read, so a keep-alive client meets no reset.
  app.use(drainRefusedBody());
  app.use(limitBody(deps.config.limits.maxBodyBytes));
  app.use(drainUnreadBody());
  // The key table is read once per request (a reload swaps it whole): the loopback guard applies while it is
  // empty, so a reload that removes every key on a loopback service guards at once.
  const guardLoopback = guardLoopbackHosts();
  app.use(async (c, next) => {
    const { keys, match } = deps.apiKeys.current;
    const identify = async () => {
      if (!PUBLIC_PATHS.has(c.req.path) && !isUiPath(c.req.path)) {
        c.set('principal', authenticate(keys, match, readPresentedKey(c.req.raw.headers)));
      }
      await next();
    };
    return keys.length === 0 ? guardLoopback(c, identify) : identify();
  });

  registerHealthRoutes(app, deps);
  registerSaveRoute(app, deps);
  registerRetrieveRoute(app, deps);
  registerForgetRoutes(app, deps);
  registerStatsRoute(app, deps);
  registerMcpRoutes(app, deps);
  registerViewerRoutes(app, deps);
  registerPeopleRoutes(app, deps);
  registerUiRoutes(app);

  app.notFound(renderNotFound);
  app.onError(createErrorHandler(deps.logger));
  return app;
}
