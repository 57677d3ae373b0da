/** @module `GET /health` (the process is up), `GET /ready` (store and embedder reachable), `GET /metrics`. */
import type { Hono } from 'hono';
import type { HealthResponse, ReadyResponse } from '../../wire/service-status.js';
import type { ServiceDeps } from '../../core/service-deps.js';
import type { ServiceEnv } from '../service-env.js';

export function registerHealthRoutes(app: Hono<ServiceEnv>, deps: ServiceDeps): void {
  app.get('/health', (c) => c.json<HealthResponse>({ status: 'ok' }));

  app.get('/ready', async (c) => {
    const checks = await deps.checkReadiness();
    const ready = Object.values(checks).every((check) => check.ok);
    const body: ReadyResponse = { ready, checks };
    return c.json(body, ready ? 200 : 503);
  });

  app.get('/metrics', async (c) => {
    const body = await deps.metrics.registry.metrics();
    return c.body(body, 200, { 'content-type': deps.metrics.registry.contentType });
  });
}
