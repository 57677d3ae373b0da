/**
 * @module The source of `memory-pool journal copy`: a SQLite journal opened read-only (never created, never
 * migrated), read inside one read transaction, so a service still writing it cannot make the copy see half
 * of a save.
 */
import { existsSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { ConfigError } from '../../errors/memory-pool-error.js';
import type { CopiedTable, JournalCopySource, RowKey } from '../journal-copy.js';
import { SCHEMA_VERSION } from '../journal-schema.js';
import type { JournalRow } from '../journal-snapshot.js';

/** Opens `dataDir`'s journal.sqlite for copying; a missing or newer journal is a ConfigError naming dataDir. */
export function openSqliteCopySource(dataDir: string): JournalCopySource {
  const path = join(dataDir, 'journal.sqlite');
  if (!existsSync(path)) {
    throw new ConfigError(
      'dataDir',
      `${dataDir} holds no journal.sqlite, so there is nothing to copy; --config the setup whose journal you mean (its dataDir)`,
    );
  }
  const db = new BetterSqlite3(path, { readonly: true, fileMustExist: true });
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version !== SCHEMA_VERSION) {
    db.close();
    throw new ConfigError(
      'dataDir',
      `holds a journal of schema ${version}, and this build copies schema ${SCHEMA_VERSION}; ` +
        (version > SCHEMA_VERSION
          ? 'upgrade memory-pool'
          : 'run `memory-pool serve` on it once to migrate it'),
    );
  }
  db.pragma('busy_timeout = 5000');
  // One snapshot for the whole copy: BEGIN is deferred, the first read pins it (WAL mode).
  db.exec('BEGIN');
  db.prepare('SELECT COUNT(*) FROM sqlite_master').get();
  const columnsOf = (table: CopiedTable) => table.key.join(', ');
  return {
    // The file's real path, not the host's name: a container gets a new host name each run, and a copy run
    // again from one must still resume its own.
    identity: `sqlite:${realpathSync(path)}`,
    countRows: (table) => (db.prepare(`SELECT COUNT(*) AS n FROM ${table.name}`).get() as { n: number }).n,
    readRows(table, after, limit) {
      const where =
        after === undefined ? '' : `WHERE (${columnsOf(table)}) > (${table.key.map(() => '?').join(', ')})`;
      return db
        .prepare(`SELECT * FROM ${table.name} ${where} ORDER BY ${columnsOf(table)} LIMIT ?`)
        .all(...(after ?? []), limit) as JournalRow[];
    },
    missingKeys(table, keys) {
      const has = db.prepare(
        `SELECT 1 FROM ${table.name} WHERE ${table.key.map((column) => `${column} = ?`).join(' AND ')}`,
      );
      return keys.filter((key: RowKey) => has.get(...key) === undefined);
    },
    close() {
      if (db.inTransaction) db.exec('COMMIT');
      db.close();
    },
  };
}
