/** @module The rename pass's rows in the Postgres journal: the SQLite tables' columns and meanings. */
import type { AccountKey } from '../journal-people.js';
import {
  type JournalRenames,
  mentionedIds,
  mentionPatterns,
  type RenameProgress,
  type RenameRequest,
} from '../journal-renames.js';
import { journaledUserIds } from '../people-rows.js';
import type { PgSession } from './postgres-session.js';
import { decodeText } from './postgres-text.js';

/** As requestSqliteRenames: run inside the people change's transaction, so both commit together. */
export async function requestPostgresRenames(
  tx: PgSession,
  bot: string,
  accounts: readonly AccountKey[],
  now: number,
): Promise<void> {
  for (const account of accounts) {
    await tx.run(
      `INSERT INTO rename_requests (bot, kind, value, version, requested_at) VALUES ($1, $2, $3, 1, $4)
       ON CONFLICT (bot, kind, value) DO UPDATE SET version = rename_requests.version + 1,
         requested_at = EXCLUDED.requested_at`,
      [bot, account.kind, account.value, now],
    );
  }
}

/** A commit is durable when it returns (synchronous_commit), so writes need no flush. */
export class PostgresRenames implements JournalRenames {
  readonly #db: PgSession;

  constructor(db: PgSession) {
    this.#db = db;
  }

  async botsWaiting(): Promise<string[]> {
    const rows = await this.#db.rows<{ bot: string }>(
      'SELECT DISTINCT bot FROM rename_requests ORDER BY bot',
    );
    return rows.map((row) => row.bot);
  }

  async requests(bot: string): Promise<RenameRequest[]> {
    const rows = await this.#db.rows<{
      kind: AccountKey['kind'];
      value: string;
      version: number;
      requested_at: number;
    }>('SELECT kind, value, version, requested_at FROM rename_requests WHERE bot = $1 ORDER BY kind, value', [
      bot,
    ]);
    return rows.map((r) => ({
      account: { kind: r.kind, value: r.value },
      version: r.version,
      requestedAt: r.requested_at,
    }));
  }

  async matchingChunks(bot: string, accounts: readonly AccountKey[]): Promise<string[]> {
    const found = new Set<string>();
    for (const { userId, source, notSource } of journaledUserIds(accounts)) {
      const rows = await this.#db.rows<{ chunk_id: string }>(
        `SELECT DISTINCT chunk_id FROM messages WHERE bot = $1 AND user_id = $2 AND ($3::text IS NULL OR source = $3)
         AND ($4::text IS NULL OR source <> $4) AND speaker_kind = 'user' AND chunk_id IS NOT NULL`,
        [bot, userId, source, notSource],
      );
      for (const row of rows) found.add(row.chunk_id);
    }
    const personas = new Set(accounts.filter((a) => a.kind === 'persona').map((a) => a.value));
    if (personas.size > 0) {
      const rows = await this.#db.rows<{ chunk_id: string; speaker_name: string | null }>(
        `SELECT chunk_id, speaker_name FROM messages
         WHERE bot = $1 AND user_id IS NULL AND speaker_kind = 'user' AND chunk_id IS NOT NULL`,
        [bot],
      );
      for (const row of rows) {
        const name = row.speaker_name === null ? '' : decodeText(row.speaker_name).trim();
        if (personas.has(name)) found.add(row.chunk_id);
      }
    }
    // A mention is stored as written: `<@id>` holds neither a backslash nor U+0000, so escaping leaves it alone.
    const patterns = mentionPatterns(mentionedIds(accounts));
    if (patterns.length > 0) {
      const rows = await this.#db.rows<{ chunk_id: string }>(
        `SELECT DISTINCT chunk_id FROM messages WHERE bot = $1 AND chunk_id IS NOT NULL AND strpos(text, '<@') > 0
         AND EXISTS (SELECT 1 FROM unnest($2::text[]) AS p WHERE strpos(text, p) > 0)`,
        [bot, patterns],
      );
      for (const row of rows) found.add(row.chunk_id);
    }
    return [...found].sort();
  }

  queueRewrites(
    bot: string,
    requests: readonly RenameRequest[],
    chunkIds: readonly string[],
    now: number,
  ): Promise<number> {
    return this.#db.transaction(async (tx) => {
      // Replanned as an edit replans (revision + 1), in one statement, noted as the rename's; a chunk waiting for
      // its point's delete is noted only (the delete replans it once done): its old point is stored until then.
      const queued = await tx.run(
        `WITH replanned AS (
           UPDATE chunks SET state = 'planned', revision = revision + 1, next_attempt_at = 0, attempts = 0
           WHERE chunk_id = ANY($1) AND bot = $2 AND needs_delete = 0 RETURNING chunk_id
         ), waiting_delete AS (
           SELECT chunk_id FROM chunks WHERE chunk_id = ANY($1) AND bot = $2 AND needs_delete = 1
         )
         INSERT INTO rename_chunks (chunk_id, bot, queued_at)
         SELECT chunk_id, $2, $3::bigint FROM (SELECT chunk_id FROM replanned UNION ALL SELECT chunk_id FROM waiting_delete) noted
         ON CONFLICT (chunk_id) DO UPDATE SET queued_at = EXCLUDED.queued_at`,
        [[...chunkIds], bot, now],
      );
      for (const r of requests) {
        await tx.run(
          'DELETE FROM rename_requests WHERE bot = $1 AND kind = $2 AND value = $3 AND version = $4',
          [bot, r.account.kind, r.account.value, r.version],
        );
      }
      return queued;
    });
  }

  async progress(): Promise<RenameProgress[]> {
    const rows = await this.#db.rows<{ bot: string; waiting: number; remaining: number }>(
      `SELECT bot, SUM(waiting)::bigint AS waiting, SUM(chunks_left)::bigint AS remaining FROM (
         SELECT bot, COUNT(*) AS waiting, 0 AS chunks_left FROM rename_requests GROUP BY bot
         UNION ALL
         SELECT r.bot, 0, COUNT(*) FROM rename_chunks r JOIN chunks c ON c.chunk_id = r.chunk_id
         WHERE c.state = 'planned' OR c.needs_delete = 1 GROUP BY r.bot
       ) counts GROUP BY bot HAVING SUM(waiting) + SUM(chunks_left) > 0 ORDER BY bot`,
    );
    return rows.map((r) => ({ bot: r.bot, accountsWaiting: r.waiting, chunksLeft: r.remaining }));
  }

  async requestRenames(bot: string, accounts: readonly AccountKey[], now: number): Promise<void> {
    await this.#db.transaction(async (tx) => requestPostgresRenames(tx, bot, accounts, now));
  }

  async isRenaming(bot: string): Promise<boolean> {
    const [row] = await this.#db.rows<{ renaming: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM rename_requests WHERE bot = $1)
         OR EXISTS (SELECT 1 FROM rename_chunks r JOIN chunks c ON c.chunk_id = r.chunk_id
                    WHERE r.bot = $1 AND (c.state = 'planned' OR c.needs_delete = 1)) AS renaming`,
      [bot],
    );
    return row?.renaming === true;
  }

  async dropFinished(): Promise<void> {
    await this.#db.run(
      `DELETE FROM rename_chunks r WHERE NOT EXISTS (SELECT 1 FROM chunks c WHERE c.chunk_id = r.chunk_id
         AND (c.state = 'planned' OR c.needs_delete = 1))`,
    );
  }
}
