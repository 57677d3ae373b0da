/**
 * @module What a caller may read of the readiness checks: the one rule behind `GET /ready` and the MCP bot
 * resource, so no face shows the journal's failure cause to a key that /ready hides it from.
 */
import type { Principal } from '../../auth/api-key-auth.js';
import type { ReadinessCheck, ReadyResponse } from '../../wire/service-status.js';

/** What a caller without an admin key reads of a failed journal check. */
export const JOURNAL_HIDDEN =
  'journal unreachable or not writable; the cause is in the service log, and in /ready for an admin key';

/**
 * The readiness answer for `principal` (undefined: no valid key was presented). The journal's errors name its
 * server (Postgres's user, host, port and database), so only an admin key, or a service with no keys (loopback
 * only), reads them; everyone else reads that the journal failed.
 */
export function showReadiness(
  checks: Readonly<Record<string, ReadinessCheck>>,
  principal: Principal | undefined,
): ReadyResponse {
  const ready = Object.values(checks).every((check) => check.ok);
  const journal = checks.journal;
  const shown =
    journal === undefined || journal.ok || isAdmin(principal)
      ? checks
      : { ...checks, journal: { ok: false, error: JOURNAL_HIDDEN } };
  return { ready, checks: shown };
}

function isAdmin(principal: Principal | undefined): boolean {
  if (principal === undefined) return false;
  return principal.kind === 'open' || principal.key.scopes.includes('admin');
}
