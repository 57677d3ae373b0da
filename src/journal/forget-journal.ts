/**
 * @module The journal's side of forgetting: find the messages a selector names, drop them, leave tombstones,
 * and mark the chunks that held them for the chunk writer (delete the point, then rewrite what is left).
 */
import type { Database } from 'better-sqlite3';

/** What a forget names; exactly one of these per request. */
export type ForgetSelector =
  | { readonly kind: 'message_ids'; readonly messageIds: readonly string[] }
  | { readonly kind: 'source'; readonly source: string }
  | { readonly kind: 'user'; readonly userId: string }
  | { readonly kind: 'channel'; readonly channelId: string }
  | { readonly kind: 'guild'; readonly guildId: string };

export interface JournalForgetResult {
  /** Messages removed from the journal (and tombstoned). */
  readonly messagesForgotten: number;
  /** Of those, messages that had not reached the store yet. */
  readonly pendingDropped: number;
  /** Stored points that lose every message: deleted. */
  readonly pointsDeleted: number;
  /** Stored points that keep other messages: rewritten without the forgotten ones. */
  readonly pointsRewritten: number;
  /** Every chunk that held a forgotten message (now waiting for its delete, then maybe a rewrite). */
  readonly chunkIds: readonly string[];
}

export interface ForgetAuditEntry {
  readonly id: number;
  readonly at: number;
  readonly actor: string;
  readonly bot: string;
  readonly selector: unknown;
  readonly result: unknown;
}

/** Forget operations over the journal's tables; each public method is one transaction. */
export class ForgetJournal {
  constructor(private readonly db: Database) {}

  /** Ids of the bot's messages the selector names, limited to `sources` when given (a source-scoped key). */
  selectMessageIds(bot: string, selector: ForgetSelector, sources?: readonly string[]): string[] {
    const sourceClause = sources ? ` AND source IN (${sources.map(() => '?').join(', ')})` : '';
    const sourceArgs = sources ?? [];
    const query = (where: string, ...args: unknown[]) =>
      (
        this.db
          .prepare(`SELECT message_id FROM messages WHERE bot = ? AND ${where}${sourceClause}`)
          .all(bot, ...args, ...sourceArgs) as { message_id: string }[]
      ).map((row) => row.message_id);
    switch (selector.kind) {
      case 'message_ids':
        // Every id, known or not: ids the journal never saw are tombstoned too (they may arrive later).
        return [...selector.messageIds];
      case 'source':
        return query('source = ?', selector.source);
      case 'channel':
        return query('channel_id = ?', selector.channelId);
      case 'guild':
        return query('guild_id = ?', selector.guildId);
      case 'user':
        // A person's "forget me": what they wrote, and the agent's replies in their direct messages.
        return query(
          `(user_id = ? OR (speaker_kind = 'self' AND is_dm = 1 AND conversation IN
             (SELECT conversation FROM messages WHERE bot = ? AND user_id = ? AND is_dm = 1)))`,
          selector.userId,
          bot,
          selector.userId,
        );
    }
  }

  /** Removes the messages, tombstones every id, and marks the chunks that held them for delete/rewrite. */
  forgetMessages(
    bot: string,
    messageIds: readonly string[],
    now: number,
    sources?: readonly string[],
  ): JournalForgetResult {
    const find = this.db.prepare(
      `SELECT m.source, m.chunk_id, c.stored_at FROM messages m LEFT JOIN chunks c ON c.chunk_id = m.chunk_id
       WHERE m.bot = ? AND m.message_id = ?`,
    );
    const remove = this.db.prepare('DELETE FROM messages WHERE bot = ? AND message_id = ?');
    // A later unscoped forget widens a scoped tombstone to every source; a scoped one never narrows it.
    const tombstone = this.db.prepare(
      `INSERT INTO forgotten_messages (bot, message_id, forgotten_at, sources) VALUES (?, ?, ?, ?)
       ON CONFLICT (bot, message_id) DO UPDATE SET sources = NULL WHERE excluded.sources IS NULL`,
    );
    const tombstoneSources = sources ? JSON.stringify(sources) : null;
    const remaining = this.db.prepare('SELECT COUNT(*) AS n FROM messages WHERE chunk_id = ?');
    const markForDelete = this.db.prepare(
      'UPDATE chunks SET needs_delete = 1, revision = revision + 1, next_attempt_at = 0, attempts = 0 WHERE chunk_id = ?',
    );
    return this.db.transaction(() => {
      let messagesForgotten = 0;
      let pendingDropped = 0;
      const storedChunks = new Set<string>();
      const touchedChunks = new Set<string>();
      for (const id of new Set(messageIds)) {
        const row = find.get(bot, id) as
          | { source: string; chunk_id: string | null; stored_at: number | null }
          | undefined;
        if (row !== undefined && sources && !sources.includes(row.source)) continue;
        tombstone.run(bot, id, now, tombstoneSources);
        if (row === undefined) continue;
        remove.run(bot, id);
        messagesForgotten += 1;
        if (row.chunk_id === null || row.stored_at === null) pendingDropped += 1;
        if (row.chunk_id !== null) {
          touchedChunks.add(row.chunk_id);
          if (row.stored_at !== null) storedChunks.add(row.chunk_id);
        }
      }
      let pointsDeleted = 0;
      let pointsRewritten = 0;
      for (const chunkId of touchedChunks) {
        markForDelete.run(chunkId);
        if (!storedChunks.has(chunkId)) continue;
        const left = (remaining.get(chunkId) as { n: number }).n;
        if (left === 0) pointsDeleted += 1;
        else pointsRewritten += 1;
      }
      return {
        messagesForgotten,
        pendingDropped,
        pointsDeleted,
        pointsRewritten,
        chunkIds: [...touchedChunks],
      };
    })();
  }

  /** The subset of `messageIds` that were forgotten for `bot`. */
  forgottenAmong(bot: string, messageIds: readonly string[]): Set<string> {
    const found = new Set<string>();
    const ids = [...new Set(messageIds)].filter((id) => id !== '');
    // In slices: SQLite limits the number of bound parameters per statement.
    for (let start = 0; start < ids.length; start += 500) {
      const slice = ids.slice(start, start + 500);
      const rows = this.db
        .prepare(
          // A tombstone whose message is still journaled belongs to another source (a scoped forget).
          `SELECT f.message_id FROM forgotten_messages f WHERE f.bot = ? AND f.message_id IN (${slice.map(() => '?').join(', ')})
           AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.bot = f.bot AND m.message_id = f.message_id)`,
        )
        .all(bot, ...slice) as { message_id: string }[];
      for (const row of rows) found.add(row.message_id);
    }
    return found;
  }

  recordAudit(entry: Omit<ForgetAuditEntry, 'id'>): void {
    this.db
      .prepare('INSERT INTO forget_audit (at, actor, bot, selector, result) VALUES (?, ?, ?, ?, ?)')
      .run(entry.at, entry.actor, entry.bot, JSON.stringify(entry.selector), JSON.stringify(entry.result));
  }

  /** Newest first. */
  listAudit(options: { bot?: string; limit: number }): ForgetAuditEntry[] {
    const rows = this.db
      .prepare(
        `SELECT id, at, actor, bot, selector, result FROM forget_audit
         WHERE (? IS NULL OR bot = ?) ORDER BY id DESC LIMIT ?`,
      )
      .all(options.bot ?? null, options.bot ?? null, options.limit) as {
      id: number;
      at: number;
      actor: string;
      bot: string;
      selector: string;
      result: string;
    }[];
    return rows.map((r) => ({ ...r, selector: JSON.parse(r.selector), result: JSON.parse(r.result) }));
  }
}
