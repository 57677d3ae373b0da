/**
 * @module A bot's journal rows as plain records, for `memory-pool export` and `restore`: the messages (their
 * ids keep dedup and edits working), chunks, tombstones (forgetting stays forgotten), forget audit, and the
 * model recorded for its collection, its people with their linked accounts, and the renames left (a point written
 * before a link change's pass says who it was with then: the restored journal must not trust it either). Rows are written back verbatim, so a restored journal exports the same
 * rows again. The parts index is not carried: its state stays unrecorded, so the restored collection's
 * parts start incomplete and `memory-pool reindex` rebuilds them.
 */
import type { Database } from 'better-sqlite3';
import { ValidationError } from '../errors/memory-pool-error.js';

/** The tables a snapshot carries, in the order they are written and restored. */
export const SNAPSHOT_TABLES = [
  'messages',
  'chunks',
  'forgotten_messages',
  'forget_audit',
  'collection_models',
  'people',
  'person_accounts',
  'rename_requests',
  'rename_chunks',
] as const;
export type SnapshotTable = (typeof SNAPSHOT_TABLES)[number];

export type JournalRow = Readonly<Record<string, string | number | null>>;

/** How the rows are chosen and ordered: by bot, or by the bot's collection and its parts collection. */
const SELECTS: Record<SnapshotTable, string> = {
  messages: 'SELECT * FROM messages WHERE bot = @bot ORDER BY source, message_id',
  chunks: 'SELECT * FROM chunks WHERE bot = @bot ORDER BY chunk_id',
  forgotten_messages: 'SELECT * FROM forgotten_messages WHERE bot = @bot ORDER BY message_id',
  forget_audit: 'SELECT * FROM forget_audit WHERE bot = @bot ORDER BY id',
  collection_models: 'SELECT * FROM collection_models WHERE collection = @collection',
  people: 'SELECT * FROM people WHERE bot = @bot ORDER BY person_id',
  person_accounts: 'SELECT * FROM person_accounts WHERE bot = @bot ORDER BY kind, value',
  rename_requests: 'SELECT * FROM rename_requests WHERE bot = @bot ORDER BY kind, value',
  rename_chunks: 'SELECT * FROM rename_chunks WHERE bot = @bot ORDER BY chunk_id',
};

/** Columns that name the bot or its collection, rewritten when a restore targets another name. */
export const RENAMED: Record<SnapshotTable, { bot?: string; collection?: string }> = {
  messages: { bot: 'bot' },
  chunks: { bot: 'bot', collection: 'collection' },
  forgotten_messages: { bot: 'bot' },
  forget_audit: { bot: 'bot' },
  collection_models: { collection: 'collection' },
  people: { bot: 'bot' },
  person_accounts: { bot: 'bot' },
  rename_requests: { bot: 'bot' },
  rename_chunks: { bot: 'bot' },
};

/** Where a row came from, for an error about it: its table and place by default; a restore names the file's line. */
export type RowOrigin = (table: SnapshotTable, index: number) => string;
export const placeInTable: RowOrigin = (table, index) => `${table} row ${index + 1}`;

export interface SnapshotNames {
  readonly bot: string;
  readonly collection: string;
}

/** Reads and writes snapshot rows and restore progress, over the journal's database. */
export class JournalSnapshot {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  /** The rows of one table for a bot and its collection. */
  readRows(table: SnapshotTable, names: SnapshotNames): JournalRow[] {
    return this.#db
      .prepare(SELECTS[table])
      .all({ bot: names.bot, collection: names.collection }) as JournalRow[];
  }

  /**
   * Inserts rows recorded under `from`, renamed to `to`; a row the journal already has is left as it is
   * (restoring twice adds nothing, and never overwrites what this journal learned since). One transaction.
   * Returns how many rows were new.
   */
  insertRows(
    table: SnapshotTable,
    rows: readonly JournalRow[],
    from: SnapshotNames,
    to: SnapshotNames,
    originOf: RowOrigin = placeInTable,
  ): number {
    const renamed = RENAMED[table];
    // Column names come from a file: only the table's own may reach the SQL text.
    const known = new Set((this.#db.pragma(`table_info(${table})`) as { name: string }[]).map((c) => c.name));
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
    return this.#db.transaction(() => {
      let inserted = 0;
      for (const row of rows) {
        const copy: Record<string, string | number | null> = { ...row };
        if (renamed.bot !== undefined) copy[renamed.bot] = to.bot;
        if (renamed.collection !== undefined) {
          if (copy[renamed.collection] === from.collection) copy[renamed.collection] = to.collection;
        }
        const columns = Object.keys(copy);
        const sql = `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')}) ON CONFLICT DO NOTHING`;
        inserted += this.#db.prepare(sql).run(copy).changes;
      }
      return inserted;
    })();
  }

  /**
   * Throws what the journal would refuse in `rows` (an unknown column, a constraint), as `insertRows` would,
   * but writes nothing: the trial runs in a transaction that is always rolled back. Restore calls it before
   * writing any point, so a bad row refuses the whole restore instead of half of it.
   */
  checkRows(
    rows: Partial<Record<SnapshotTable, readonly JournalRow[]>>,
    from: SnapshotNames,
    to: SnapshotNames,
    originOf: RowOrigin = placeInTable,
  ): void {
    const rolledBack = new Error('trial insert rolled back');
    try {
      this.#db.transaction(() => {
        for (const table of SNAPSHOT_TABLES) this.insertRows(table, rows[table] ?? [], from, to, originOf);
        throw rolledBack;
      })();
    } catch (error) {
      if (error !== rolledBack) throw error;
    }
  }

  /** The snapshot a collection is being restored from, and whether that restore finished. */
  restoreOf(collection: string): { snapshot: string; complete: boolean } | undefined {
    const row = this.#db
      .prepare('SELECT snapshot, complete FROM restores WHERE collection = ?')
      .get(collection) as { snapshot: string; complete: number } | undefined;
    return row && { snapshot: row.snapshot, complete: row.complete === 1 };
  }

  recordRestore(collection: string, snapshot: string, complete: boolean, now: number): void {
    this.#db
      .prepare(
        `INSERT INTO restores (collection, snapshot, complete, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (collection) DO UPDATE SET snapshot = excluded.snapshot, complete = excluded.complete,
           updated_at = excluded.updated_at`,
      )
      .run(collection, snapshot, complete ? 1 : 0, now);
  }
}
