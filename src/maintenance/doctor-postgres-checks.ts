/**
 * @module `memory-pool doctor`'s checks of a Postgres journal (journal.postgres.url): the server answers,
 * the journal's schema is one this build knows, and it takes writes. They stand where the SQLite journal's
 * "journal writable" stands; the free-disk check does not apply (the server's disk is the server's).
 */
import type { Journal } from '../journal/journal.js';
import { checkPostgresJournal } from '../journal/postgres/check-postgres-journal.js';
import { redactPostgresUrl } from '../journal/postgres/postgres-errors.js';
import { SCHEMA_VERSION } from '../journal/postgres/postgres-schema.js';
import { type DoctorCheck, fail, pass } from './doctor-check.js';

const REACH_FIX =
  'Check journal.postgres.url (or MEMORY_POOL_POSTGRES_URL), and that the server runs and accepts this user from this machine.';

/** The server answers and the journal's schema is known; `usable` says whether opening the journal makes sense. */
export async function checkPostgresReachable(
  url: string,
  timeoutMs?: number,
): Promise<{ readonly checks: DoctorCheck[]; readonly usable: boolean }> {
  const where = redactPostgresUrl(url);
  let found: Awaited<ReturnType<typeof checkPostgresJournal>>;
  try {
    found = await checkPostgresJournal(url, timeoutMs);
  } catch (error) {
    return { checks: [fail('journal reachable', (error as Error).message, REACH_FIX)], usable: false };
  }
  const reachable = pass('journal reachable', `Postgres ${found.serverVersion} at ${where} answers`);
  const schema = found.schemaVersion;
  if (schema !== undefined && schema > SCHEMA_VERSION) {
    return {
      checks: [
        reachable,
        fail(
          'journal schema',
          `the journal at ${where} was written by a newer memory-pool (schema ${schema}, this build knows ${SCHEMA_VERSION})`,
          'Upgrade memory-pool to the version the other replicas run.',
        ),
      ],
      usable: false,
    };
  }
  const detail =
    schema === undefined
      ? `no journal in this database yet: the first open (serve, or this doctor) creates schema ${SCHEMA_VERSION}; \`memory-pool journal copy\` moves a SQLite journal in`
      : schema < SCHEMA_VERSION
        ? `schema ${schema}: serve migrates it to ${SCHEMA_VERSION} at start`
        : `schema ${schema}, as this build writes`;
  return { checks: [reachable, pass('journal schema', detail)], usable: true };
}

/** The Postgres journal could not be opened (its message names the key, the password hidden). */
export function postgresJournalFailure(error: unknown): DoctorCheck {
  return fail('journal writable', (error as Error).message, REACH_FIX);
}

/** One probe row written and removed, and the server is a primary that takes writes (not a standby). */
export async function checkPostgresWritable(journal: Journal, url: string): Promise<DoctorCheck> {
  const where = redactPostgresUrl(url);
  try {
    await journal.checkWritable();
    await journal.probeWritable();
    return pass('journal writable', `${where} takes writes (a probe row written and removed)`);
  } catch (error) {
    return fail(
      'journal writable',
      (error as Error).message,
      "Point journal.postgres.url at the primary (not a standby or a read-only database); check the server's disk and that this user may write the journal's tables.",
    );
  }
}
