/**
 * @module What a caller may read of the readiness checks: the one rule behind `GET /ready` and the MCP bot
 * resource, so no face shows the journal's failure cause to a key that /ready hides it from.
 */
import type { Principal } from '../../auth/api-key-auth.js';
import type { RenameProgress } from '../../journal/journal-renames.js';
import type { ReadinessCheck, ReadyResponse, RenamingStatus } from '../../wire/service-status.js';

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
  renames: readonly RenameProgress[] = [],
): ReadyResponse {
  const ready = Object.values(checks).every((check) => check.ok);
  const journal = checks.journal;
  const shown =
    journal === undefined || journal.ok || isAdmin(principal)
      ? checks
      : { ...checks, journal: { ok: false, error: JOURNAL_HIDDEN } };
  const renaming = showRenaming(renames, isAdmin(principal));
  return { ready, checks: shown, ...(renaming === undefined ? {} : { renaming }) };
}

/**
 * A rename pass's progress: counts only, summed over the bots; by bot (the configured names) for an admin key
 * only, as /ready is public. Undefined when no pass runs.
 */
function showRenaming(
  renames: readonly RenameProgress[],
  admin: boolean,
): ReadyResponse['renaming'] | undefined {
  if (renames.length === 0) return undefined;
  const status = (of: readonly RenameProgress[]): RenamingStatus => ({
    chunksLeft: of.reduce((sum, p) => sum + p.chunksLeft, 0),
    accountsWaiting: of.reduce((sum, p) => sum + p.accountsWaiting, 0),
  });
  if (!admin) return status(renames);
  return { ...status(renames), bots: Object.fromEntries(renames.map((p) => [p.bot, status([p])])) };
}

function isAdmin(principal: Principal | undefined): boolean {
  if (principal === undefined) return false;
  return principal.kind === 'open' || principal.key.scopes.includes('admin');
}
