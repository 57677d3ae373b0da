/**
 * @module `GET /health` (the process is up), `GET /ready` (store and embedder reachable; a rename pass's progress
 * while one runs), `GET /metrics`.
 */
import type { Context, Hono } from 'hono';
import type { Principal } from '../../auth/api-key-auth.js';
import { readPresentedKey } from '../../auth/api-key-auth.js';
import { showReadiness } from '../../core/operations/show-readiness.js';
import type { ServiceDeps } from '../../core/service-deps.js';
import type { HealthResponse, ReadinessCheck } from '../../wire/service-status.js';
import type { ServiceEnv } from '../service-env.js';

export function registerHealthRoutes(app: Hono<ServiceEnv>, deps: ServiceDeps): void {
  app.get('/health', (c) => c.json<HealthResponse>({ status: 'ok' }));

  // The journal's errors name its server: Postgres's user, host, port and database. /ready is public (a load
  // balancer polls it), so others read that the journal failed, and the cause goes to the log once.
  let loggedCause: string | undefined;
  app.get('/ready', async (c) => {
    const [checks, renames] = await Promise.all([
      deps.checkReadiness(),
      deps.readRenaming?.() ?? Promise.resolve([]),
    ]);
    const journal: ReadinessCheck | undefined = checks.journal;
    if (journal !== undefined && !journal.ok && journal.error !== loggedCause) {
      loggedCause = journal.error;
      deps.logger.warn({ cause: journal.error }, 'readiness: the journal check failed');
    }
    // A rename pass running is reported, never a reason for 503: the service serves meanwhile.
    const body = showReadiness(checks, readCaller(c, deps), renames);
    return c.json(body, body.ready ? 200 : 503);
  });

  app.get('/metrics', async (c) => {
    const body = await deps.metrics.registry.metrics();
    return c.body(body, 200, { 'content-type': deps.metrics.registry.contentType });
  });
}

/** Who calls the public /ready: open with no keys configured, the key presented if it is valid, else nobody. */
function readCaller(c: Context<ServiceEnv>, deps: ServiceDeps): Principal | undefined {
  const { keys, match } = deps.apiKeys.current;
  if (keys.length === 0) return { kind: 'open' };
  const presented = readPresentedKey(c.req.raw.headers);
  const key = presented === undefined ? undefined : match(presented);
  return key === undefined ? undefined : { kind: 'key', key };
}
