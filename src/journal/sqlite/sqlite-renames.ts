/**
 * @module The rename pass's rows in the SQLite journal (schema step 4), synchronous: the journal port runs it
 * through its queue and fsyncs the WAL after each write outside a transaction.
 */
import type { Database } from 'better-sqlite3';
import type { AccountKey } from '../journal-people.js';
import {
  mentionedIds,
  mentionPatterns,
  type RenameProgress,
  type RenameRequest,
} from '../journal-renames.js';
import { journaledUserIds } from '../people-rows.js';

/**
 * Records that the chunks of `accounts` must be renamed: called inside the transaction of the people change, so
 * the change and its request commit together.
 */
export function requestSqliteRenames(
  db: Database,
  bot: string,
  accounts: readonly AccountKey[],
  now: number,
): void {
  const upsert = db.prepare(
    `INSERT INTO rename_requests (bot, kind, value, version, requested_at) VALUES (?, ?, ?, 1, ?)
     ON CONFLICT (bot, kind, value) DO UPDATE SET version = version + 1, requested_at = excluded.requested_at`,
  );
  for (const account of accounts) upsert.run(bot, account.kind, account.value, now);
}

/** Each method is one statement, or one transaction. */
export class SqliteRenames {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  botsWaiting(): string[] {
    const rows = this.#db.prepare('SELECT DISTINCT bot FROM rename_requests ORDER BY bot').all() as {
      bot: string;
    }[];
    return rows.map((row) => row.bot);
  }

  requests(bot: string): RenameRequest[] {
    const rows = this.#db
      .prepare(
        'SELECT kind, value, version, requested_at FROM rename_requests WHERE bot = ? ORDER BY kind, value',
      )
      .all(bot) as { kind: AccountKey['kind']; value: string; version: number; requested_at: number }[];
    return rows.map((r) => ({
      account: { kind: r.kind, value: r.value },
      version: r.version,
      requestedAt: r.requested_at,
    }));
  }

  matchingChunks(bot: string, accounts: readonly AccountKey[]): string[] {
    const found = new Set<string>();
    const byUser = this.#db.prepare(
      `SELECT DISTINCT chunk_id FROM messages WHERE bot = ? AND user_id = ? AND (? IS NULL OR source = ?)
       AND (? IS NULL OR source <> ?) AND speaker_kind = 'user' AND chunk_id IS NOT NULL`,
    );
    for (const { userId, source, notSource } of journaledUserIds(accounts)) {
      for (const row of byUser.all(bot, userId, source, source, notSource, notSource) as { chunk_id: string }[])
        found.add(row.chunk_id);
    }
    const personas = new Set(accounts.filter((a) => a.kind === 'persona').map((a) => a.value));
    if (personas.size > 0) {
      // The index holds only messages with no user id; the name is matched trimmed, as accountOfMessage does.
      const rows = this.#db
        .prepare(
          `SELECT chunk_id, speaker_name FROM messages INDEXED BY messages_by_persona
           WHERE bot = ? AND user_id IS NULL AND speaker_kind = 'user' AND chunk_id IS NOT NULL`,
        )
        .all(bot) as { chunk_id: string; speaker_name: string | null }[];
      for (const row of rows) if (personas.has(row.speaker_name?.trim() ?? '')) found.add(row.chunk_id);
    }
    const patterns = mentionPatterns(mentionedIds(accounts));
    if (patterns.length > 0) {
      // instr, not LIKE: the id is matched as written, and one scan of the bot's messages serves every account.
      const rows = this.#db
        .prepare(
          `SELECT DISTINCT chunk_id FROM messages WHERE bot = ? AND chunk_id IS NOT NULL AND instr(text, '<@') > 0
           AND (${patterns.map(() => 'instr(text, ?) > 0').join(' OR ')})`,
        )
        .all(bot, ...patterns) as { chunk_id: string }[];
      for (const row of rows) found.add(row.chunk_id);
    }
    return [...found].sort();
  }

  queueRewrites(
    bot: string,
    requests: readonly RenameRequest[],
    chunkIds: readonly string[],
    now: number,
  ): number {
    const replan = this.#db.prepare(
      `UPDATE chunks SET state = 'planned', revision = revision + 1, next_attempt_at = 0, attempts = 0
       WHERE chunk_id = ? AND bot = ? AND needs_delete = 0`,
    );
    // A chunk waiting for its point's delete is not replanned (the delete replans it once done), but is noted:
    // its old point, with its old names and dmWith, is stored until then, so the rename is not over.
    const waitingDelete = this.#db.prepare(
      'SELECT 1 FROM chunks WHERE chunk_id = ? AND bot = ? AND needs_delete = 1',
    );
    const note = this.#db.prepare(
      'INSERT INTO rename_chunks (chunk_id, bot, queued_at) VALUES (?, ?, ?) ON CONFLICT (chunk_id) DO UPDATE SET queued_at = excluded.queued_at',
    );
    const done = this.#db.prepare(
      'DELETE FROM rename_requests WHERE bot = ? AND kind = ? AND value = ? AND version = ?',
    );
    return this.#db
      .transaction(() => {
        let queued = 0;
        for (const id of chunkIds) {
          if (replan.run(id, bot).changes === 0 && waitingDelete.get(id, bot) === undefined) continue;
          note.run(id, bot, now);
          queued += 1;
        }
        for (const r of requests) done.run(bot, r.account.kind, r.account.value, r.version);
        return queued;
      })
      .immediate();
  }

  progress(): RenameProgress[] {
    const rows = this.#db
      .prepare(
        `SELECT bot, SUM(waiting) AS waiting, SUM(remaining) AS remaining FROM (
           SELECT bot, COUNT(*) AS waiting, 0 AS remaining FROM rename_requests GROUP BY bot
           UNION ALL
           SELECT r.bot, 0, COUNT(*) FROM rename_chunks r JOIN chunks c ON c.chunk_id = r.chunk_id
           WHERE c.state = 'planned' OR c.needs_delete = 1 GROUP BY r.bot
         ) GROUP BY bot HAVING SUM(waiting) + SUM(remaining) > 0 ORDER BY bot`,
      )
      .all() as { bot: string; waiting: number; remaining: number }[];
    return rows.map((r) => ({ bot: r.bot, accountsWaiting: r.waiting, chunksLeft: r.remaining }));
  }

  requestRenames(bot: string, accounts: readonly AccountKey[], now: number): void {
    this.#db.transaction(() => requestSqliteRenames(this.#db, bot, accounts, now))();
  }

  isRenaming(bot: string): boolean {
    const row = this.#db
      .prepare(
        `SELECT EXISTS (SELECT 1 FROM rename_requests WHERE bot = ?)
           OR EXISTS (SELECT 1 FROM rename_chunks r JOIN chunks c ON c.chunk_id = r.chunk_id
                      WHERE r.bot = ? AND (c.state = 'planned' OR c.needs_delete = 1)) AS renaming`,
      )
      .get(bot, bot) as { renaming: number };
    return row.renaming === 1;
  }

  dropFinished(): void {
    this.#db
      .prepare(
        `DELETE FROM rename_chunks WHERE NOT EXISTS (SELECT 1 FROM chunks c WHERE c.chunk_id = rename_chunks.chunk_id
           AND (c.state = 'planned' OR c.needs_delete = 1))`,
      )
      .run();
  }
}
