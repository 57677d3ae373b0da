/** @module `GET /health` (the process is up), `GET /ready` (store and embedder reachable), `GET /metrics`. */
import type { Context, Hono } from 'hono';
import { readPresentedKey } from '../../auth/api-key-auth.js';
import type { ServiceDeps } from '../../core/service-deps.js';
import type { HealthResponse, ReadinessCheck, ReadyResponse } from '../../wire/service-status.js';
import type { ServiceEnv } from '../service-env.js';

/** What a caller without an admin key reads of a failed journal check. */
const JOURNAL_HIDDEN =
  'journal unreachable or not writable; the cause is in the service log, and in /ready for an admin key';

export function registerHealthRoutes(app: Hono<ServiceEnv>, deps: ServiceDeps): void {
  app.get('/health', (c) => c.json<HealthResponse>({ status: 'ok' }));

  // The journal's errors name its server: Postgres's user, host, port and database. /ready is public (a load
  // balancer polls it), so others read that the journal failed, and the cause goes to the log once.
  let loggedCause: string | undefined;
  app.get('/ready', async (c) => {
    const checks = await deps.checkReadiness();
    const ready = Object.values(checks).every((check) => check.ok);
    const journal: ReadinessCheck | undefined = checks.journal;
    if (journal !== undefined && !journal.ok && journal.error !== loggedCause) {
      loggedCause = journal.error;
      deps.logger.warn({ cause: journal.error }, 'readiness: the journal check failed');
    }
    const shown =
      journal === undefined || journal.ok || isAdmin(c, deps)
        ? checks
        : { ...checks, journal: { ok: false, error: JOURNAL_HIDDEN } };
    const body: ReadyResponse = { ready, checks: shown };
    return c.json(body, ready ? 200 : 503);
  });

  app.get('/metrics', async (c) => {
    const body = await deps.metrics.registry.metrics();
    return c.body(body, 200, { 'content-type': deps.metrics.registry.contentType });
  });
}

/** Whether the caller may read the journal's detail: an admin key, or a service with no keys (loopback only). */
function isAdmin(c: Context<ServiceEnv>, deps: ServiceDeps): boolean {
  const { keys, match } = deps.apiKeys.current;
  if (keys.length === 0) return true;
  const presented = readPresentedKey(c.req.raw.headers);
  return presented !== undefined && match(presented)?.scopes.includes('admin') === true;
}
