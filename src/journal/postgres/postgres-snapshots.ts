/**
 * @module Export and restore rows in Postgres, as journal-snapshot.ts does in SQLite: the tables have the
 * same columns, so a snapshot taken from either backend restores into the other.
 */
import { ValidationError } from '../../errors/memory-pool-error.js';
import type { JournalSnapshots } from '../journal.js';
import {
  type JournalRow,
  placeInTable,
  RENAMED,
  type RowOrigin,
  SNAPSHOT_TABLES,
  type SnapshotNames,
  type SnapshotTable,
} from '../journal-snapshot.js';
import type { PgSession } from './postgres-session.js';
import { decodeText, ESCAPED_CHUNK_COLUMNS, ESCAPED_MESSAGE_COLUMNS, encodeText } from './postgres-text.js';

const SELECTS: Record<SnapshotTable, string> = {
  messages: 'SELECT * FROM messages WHERE bot = $1 ORDER BY source, message_id',
  chunks: 'SELECT * FROM chunks WHERE bot = $1 ORDER BY chunk_id',
  forgotten_messages: 'SELECT * FROM forgotten_messages WHERE bot = $1 ORDER BY message_id',
  forget_audit: 'SELECT * FROM forget_audit WHERE bot = $1 ORDER BY id',
  collection_models: 'SELECT * FROM collection_models WHERE collection = $1',
  people: 'SELECT * FROM people WHERE bot = $1 ORDER BY person_id',
  person_accounts: 'SELECT * FROM person_accounts WHERE bot = $1 ORDER BY kind, value',
  rename_requests: 'SELECT * FROM rename_requests WHERE bot = $1 ORDER BY kind, value',
  rename_chunks: 'SELECT * FROM rename_chunks WHERE bot = $1 ORDER BY chunk_id',
};

/** Tables chosen by the collection rather than the bot (a parameter Postgres cannot type is an error). */
const BY_COLLECTION: ReadonlySet<SnapshotTable> = new Set(['collection_models']);

export class PostgresSnapshots implements JournalSnapshots {
  readonly #db: PgSession;

  constructor(db: PgSession) {
    this.#db = db;
  }

  async readRows(table: SnapshotTable, names: SnapshotNames): Promise<JournalRow[]> {
    const rows = await this.#db.rows<JournalRow>(SELECTS[table], [
      BY_COLLECTION.has(table) ? names.collection : names.bot,
    ]);
    return rows.map((row) => recode(table, row, decodeText));
  }

  async insertRows(
    table: SnapshotTable,
    rows: readonly JournalRow[],
    from: SnapshotNames,
    to: SnapshotNames,
    originOf: RowOrigin = placeInTable,
  ): Promise<number> {
    // Column names come from a file: only the table's own may reach the SQL text.
    const known = new Set(
      (
        await this.#db.rows<{ column_name: string }>(
          'SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1',
          [table],
        )
      ).map((row) => row.column_name),
    );
    rows.forEach((row, index) => {
      const unknown = Object.keys(row).find((column) => !known.has(column));
      if (unknown !== undefined) {
        const origin = originOf(table, index);
        throw new ValidationError(
          origin,
          `${origin}: a ${table} row has the column ${JSON.stringify(unknown)}, which the journal does not have`,
        );
      }
    });
    const renamed = RENAMED[table];
    return this.#db.transaction(async (tx) => {
      let inserted = 0;
      for (const row of rows) {
        const copy: Record<string, string | number | null> = recode(table, row, encodeText);
        if (renamed.bot !== undefined) copy[renamed.bot] = to.bot;
        if (renamed.collection !== undefined && copy[renamed.collection] === from.collection) {
          copy[renamed.collection] = to.collection;
        }
        const columns = Object.keys(copy);
        inserted += await tx.run(
          `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})
           ON CONFLICT DO NOTHING`,
          Object.values(copy),
        );
      }
      // Audit rows keep their ids: the sequence must move past them, or the next forget's id collides.
      if (table === 'forget_audit' && rows.length > 0) {
        await tx.run(
          "SELECT setval(pg_get_serial_sequence('forget_audit', 'id'), GREATEST((SELECT MAX(id) FROM forget_audit), 1))",
        );
      }
      return inserted;
    });
  }

  async checkRows(
    rows: Partial<Record<SnapshotTable, readonly JournalRow[]>>,
    from: SnapshotNames,
    to: SnapshotNames,
    originOf: RowOrigin = placeInTable,
  ): Promise<void> {
    const rolledBack = new Error('trial insert rolled back');
    try {
      await this.#db.transaction(async (tx) => {
        const trial = new PostgresSnapshots(tx);
        for (const table of SNAPSHOT_TABLES)
          await trial.insertRows(table, rows[table] ?? [], from, to, originOf);
        throw rolledBack;
      });
    } catch (error) {
      if (error !== rolledBack) throw error;
    }
  }

  async restoreOf(collection: string): Promise<{ snapshot: string; complete: boolean } | undefined> {
    const row = await this.#db.row<{ snapshot: string; complete: number }>(
      'SELECT snapshot, complete FROM restores WHERE collection = $1',
      [collection],
    );
    return row && { snapshot: row.snapshot, complete: row.complete === 1 };
  }

  async recordRestore(collection: string, snapshot: string, complete: boolean, now: number): Promise<void> {
    await this.#db.run(
      `INSERT INTO restores (collection, snapshot, complete, updated_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (collection) DO UPDATE SET snapshot = excluded.snapshot, complete = excluded.complete,
         updated_at = excluded.updated_at`,
      [collection, snapshot, complete ? 1 : 0, now],
    );
  }
}

/** A row with its escaped columns (postgres-text.ts) encoded or decoded. */
function recode(
  table: SnapshotTable,
  row: JournalRow,
  code: (value: string) => string,
): Record<string, string | number | null> {
  const copy: Record<string, string | number | null> = { ...row };
  const columns =
    table === 'messages' ? ESCAPED_MESSAGE_COLUMNS : table === 'chunks' ? ESCAPED_CHUNK_COLUMNS : [];
  for (const column of columns) {
    const value = copy[column];
    if (typeof value === 'string') copy[column] = code(value);
  }
  return copy;
}
