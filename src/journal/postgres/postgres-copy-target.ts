/**
 * @module The target of `memory-pool journal copy`: a Postgres journal (schema created or migrated as a
 * replica's open does), filled by upserts, with the copy's progress in a table of its own (journal_copy)
 * written in the same transaction as each batch, so an interrupted copy resumes exactly where it stopped.
 */
import pg from 'pg';
import type { BatchResult, CopiedTable, JournalCopyTarget, RowKey, TableProgress } from '../journal-copy.js';
import type { JournalRow } from '../journal-snapshot.js';
import { toConnectError } from './check-postgres-journal.js';
import { holdCopyLock } from './postgres-copy-lock.js';
import { TYPES } from './postgres-journal.js';
import { applyPostgresSchema, readPostgresSchemaVersion } from './postgres-schema.js';
import { PgSession } from './postgres-session.js';
import { ESCAPED_CHUNK_COLUMNS, ESCAPED_MESSAGE_COLUMNS, encodeText } from './postgres-text.js';

/**
 * One row per copied table. target_rows is what the table holds after the copy's own writes: a later run
 * that finds another count knows something else (a service) wrote the journal since.
 */
const PROGRESS_TABLE = `CREATE TABLE IF NOT EXISTS journal_copy (
  table_name TEXT PRIMARY KEY, source TEXT NOT NULL, after_key TEXT, done INTEGER NOT NULL,
  target_rows BIGINT NOT NULL, updated_at BIGINT NOT NULL
)`;

const ESCAPED: Record<string, readonly string[]> = {
  messages: ESCAPED_MESSAGE_COLUMNS,
  chunks: ESCAPED_CHUNK_COLUMNS,
};

/**
 * Connects; unless `readOnly` (a dry run), creates or migrates the journal's schema and checks the server
 * takes writes. A server it cannot reach or a newer journal is a ConfigError (the caller names its flag).
 */
export async function openPostgresCopyTarget(
  url: string,
  options: { readonly readOnly?: boolean } = {},
): Promise<JournalCopyTarget> {
  const pool = new pg.Pool({
    connectionString: url,
    types: TYPES,
    max: 3,
    connectionTimeoutMillis: 5000,
    application_name: 'memory-pool journal copy',
  });
  pool.on('error', () => undefined); // an idle client's loss is reported by the next query
  const db = new PgSession(pool, url);
  let lock: pg.Client | undefined;
  const close = async () => {
    // Ending the connection ends its session lock with it.
    await lock?.end().catch(() => undefined);
    await pool.end();
  };
  try {
    if (options.readOnly === true) await readPostgresSchemaVersion(db);
    else {
      // Taken before anything is written: no other copy, and no replica serving (its saves would be deleted).
      lock = await holdCopyLock(url);
      await applyPostgresSchema(db);
      await db.run(PROGRESS_TABLE);
      await db.checkWritable();
    }
  } catch (error) {
    await close();
    throw toConnectError(error, url);
  }
  return new PostgresCopyTarget(db, close);
}

class PostgresCopyTarget implements JournalCopyTarget {
  readonly #db: PgSession;
  readonly #close: () => Promise<void>;

  constructor(db: PgSession, close: () => Promise<void>) {
    this.#db = db;
    this.#close = close;
  }

  async countRows(table: CopiedTable): Promise<number> {
    if (!(await this.#exists(table.name))) return 0;
    return (await this.#db.row<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table.name}`))?.n ?? 0;
  }

  async readProgress(): Promise<Map<string, TableProgress>> {
    if (!(await this.#exists('journal_copy'))) return new Map();
    const rows = await this.#db.rows<{
      table_name: string;
      source: string;
      after_key: string | null;
      done: number;
      target_rows: number;
    }>('SELECT table_name, source, after_key, done, target_rows FROM journal_copy');
    return new Map(
      rows.map((r) => [
        r.table_name,
        {
          source: r.source,
          after: r.after_key === null ? undefined : (JSON.parse(r.after_key) as RowKey),
          done: r.done === 1,
          targetRows: r.target_rows,
        },
      ]),
    );
  }

  async startPass(source: string, counts: ReadonlyMap<string, number>): Promise<void> {
    await this.#db.transaction(async (tx) => {
      for (const [table, count] of counts) {
        await tx.run(
          `INSERT INTO journal_copy (table_name, source, after_key, done, target_rows, updated_at)
           VALUES ($1, $2, NULL, 0, $3, $4)
           ON CONFLICT (table_name) DO UPDATE SET source = excluded.source, after_key = NULL, done = 0,
             target_rows = excluded.target_rows, updated_at = excluded.updated_at`,
          [table, source, count, Date.now()],
        );
      }
    });
  }

  writeRows(table: CopiedTable, rows: readonly JournalRow[], after: RowKey): Promise<BatchResult> {
    return this.#db.transaction(async (tx) => {
      let inserted = 0;
      let updated = 0;
      if (rows.length > 0) {
        const columns = Object.keys(rows[0]!);
        const values = rows.flatMap((row) =>
          columns.map((column) => encodeColumn(table, column, row[column])),
        );
        const tuples = rows.map(
          (_, r) => `(${columns.map((_, c) => `$${r * columns.length + c + 1}`).join(', ')})`,
        );
        const rest = columns.filter((column) => !table.key.includes(column));
        // A row already there is overwritten only when it differs, so a second run changes (and counts) nothing.
        const result = await tx.rows<{ inserted: boolean }>(
          `INSERT INTO ${table.name} AS t (${columns.join(', ')}) VALUES ${tuples.join(', ')}
           ON CONFLICT (${table.key.join(', ')}) DO UPDATE SET ${rest.map((c) => `${c} = excluded.${c}`).join(', ')}
           WHERE (${rest.map((c) => `t.${c}`).join(', ')}) IS DISTINCT FROM (${rest.map((c) => `excluded.${c}`).join(', ')})
           RETURNING (xmax = 0) AS inserted`,
          values,
        );
        inserted = result.filter((r) => r.inserted).length;
        updated = result.length - inserted;
        // Audit rows keep their ids: the sequence must move past them, or the next forget's id collides.
        if (table.name === 'forget_audit') {
          await tx.run(
            "SELECT setval(pg_get_serial_sequence('forget_audit', 'id'), GREATEST((SELECT MAX(id) FROM forget_audit), 1))",
          );
        }
      }
      await tx.run(
        'UPDATE journal_copy SET after_key = $2, target_rows = target_rows + $3, updated_at = $4 WHERE table_name = $1',
        [table.name, JSON.stringify(after), inserted, Date.now()],
      );
      return { inserted, updated };
    });
  }

  async readKeys(table: CopiedTable, after: RowKey | undefined, limit: number): Promise<RowKey[]> {
    const key = table.key.join(', ');
    const where =
      after === undefined ? '' : `WHERE (${key}) > (${table.key.map((_, i) => `$${i + 2}`).join(', ')})`;
    const rows = await this.#db.rows<Record<string, string | number>>(
      `SELECT ${key} FROM ${table.name} ${where} ORDER BY ${key} LIMIT $1`,
      [limit, ...(after ?? [])],
    );
    return rows.map((row) => table.key.map((column) => row[column]!));
  }

  deleteRows(table: CopiedTable, keys: readonly RowKey[]): Promise<number> {
    return this.#db.transaction(async (tx) => {
      const type = table.integerKey === true ? 'bigint[]' : 'text[]';
      const arrays = table.key.map((_, i) => keys.map((key) => key[i]));
      const deleted =
        keys.length === 0
          ? 0
          : await tx.run(
              `DELETE FROM ${table.name} WHERE (${table.key.join(', ')}) IN
                 (SELECT * FROM unnest(${table.key.map((_, i) => `$${i + 1}::${type}`).join(', ')}))`,
              arrays,
            );
      await tx.run('UPDATE journal_copy SET target_rows = target_rows - $2 WHERE table_name = $1', [
        table.name,
        deleted,
      ]);
      return deleted;
    });
  }

  async markDone(table: CopiedTable): Promise<void> {
    await this.#db.run('UPDATE journal_copy SET done = 1, updated_at = $2 WHERE table_name = $1', [
      table.name,
      Date.now(),
    ]);
  }

  close(): Promise<void> {
    return this.#close();
  }

  async #exists(name: string): Promise<boolean> {
    return (
      (await this.#db.row<{ found: string | null }>('SELECT to_regclass($1) AS found', [name]))?.found != null
    );
  }
}

/** A value as the Postgres journal stores it: the columns that may hold U+0000 escaped (postgres-text.ts). */
function encodeColumn(table: CopiedTable, column: string, value: string | number | null | undefined) {
  if (typeof value === 'string' && ESCAPED[table.name]?.includes(column) === true) return encodeText(value);
  return value ?? null;
}
