/**
 * @module The one opener of the journal that serve and the CLI use: the Postgres journal when
 * `journal.postgres.url` (env MEMORY_POOL_POSTGRES_URL) is set, else SQLite under dataDir, as always.
 */
import type { MemoryPoolConfig } from '../config/config-types.js';
import type { Journal } from './journal.js';
import { openServingSqliteJournal, openSqliteJournal } from './sqlite/sqlite-journal.js';

/** Which journal `config` names, for messages: "SQLite" or "Postgres". */
export function journalBackendOf(config: Pick<MemoryPoolConfig, 'journal'>): 'SQLite' | 'Postgres' {
  return config.journal?.postgres === undefined ? 'SQLite' : 'Postgres';
}

/**
 * Opens (or creates) the journal the config names. A Postgres server that cannot be reached, a database that
 * cannot be opened or a login refused is one ConfigError naming journal.postgres.url (the password hidden).
 * `serving` is set by serve alone.
 */
export async function openJournal(
  config: Pick<MemoryPoolConfig, 'dataDir' | 'journal'>,
  options: { serving?: boolean } = {},
): Promise<Journal> {
  const url = config.journal?.postgres?.url;
  // Only serve drops stale claims (see openSqliteJournal); on Postgres, claims are the replicas' and expire.
  if (url === undefined)
    return options.serving === true
      ? openServingSqliteJournal(config.dataDir)
      : openSqliteJournal(config.dataDir);
  // Loaded only when named: a SQLite setup never loads the Postgres driver.
  const { openPostgresJournal } = await import('./postgres/postgres-journal.js');
  return openPostgresJournal(url);
}
