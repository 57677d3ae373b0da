/**
 * @module The Discord state in the SQLite journal (tables of schema step 2), synchronous: the journal port
 * runs it through its queue and fsyncs the WAL after each write outside a transaction.
 */
import type { Database } from 'better-sqlite3';
import type { ChannelRule, DiscordStateRows } from '../journal-discord.js';

/** Each method is one statement, or one transaction (readState). */
export class SqliteDiscord {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  readState(bot: string): DiscordStateRows {
    const read = this.#db.transaction((): DiscordStateRows => {
      const all = <T>(sql: string) => this.#db.prepare(sql).all(bot) as T[];
      const gateway = this.#db.prepare('SELECT connected_at FROM discord_gateway WHERE bot = ?').get(bot) as
        | { connected_at: number }
        | undefined;
      return {
        optedOut: all<{ user_id: string }>('SELECT user_id FROM discord_opt_outs WHERE bot = ?').map(
          (r) => r.user_id,
        ),
        channelRules: all<{ channel_id: string; rule: ChannelRule }>(
          'SELECT channel_id, rule FROM discord_channel_rules WHERE bot = ?',
        ).map((r) => ({ channelId: r.channel_id, rule: r.rule })),
        backfilled: all<{ channel_id: string }>(
          'SELECT channel_id FROM discord_backfilled WHERE bot = ?',
        ).map((r) => r.channel_id),
        forgotten: all<{ kind: 'user' | 'channel'; id: string; at: number }>(
          'SELECT kind, id, at FROM discord_forgotten_before WHERE bot = ?',
        ),
        threads: all<{ thread_id: string; parent_id: string; public: number | null }>(
          'SELECT thread_id, parent_id, public FROM discord_threads WHERE bot = ?',
        ).map((r) => ({
          threadId: r.thread_id,
          parentId: r.parent_id,
          isPublic: r.public === null ? null : r.public === 1,
        })),
        connectedUntil: gateway?.connected_at,
      };
    });
    return read();
  }

  setOptedOut(bot: string, userId: string, optedOut: boolean, at: number): boolean {
    const result = optedOut
      ? this.#db
          .prepare('INSERT OR IGNORE INTO discord_opt_outs (bot, user_id, at) VALUES (?, ?, ?)')
          .run(bot, userId, at)
      : this.#db.prepare('DELETE FROM discord_opt_outs WHERE bot = ? AND user_id = ?').run(bot, userId);
    return result.changes > 0;
  }

  setChannelRule(bot: string, channelId: string, rule: ChannelRule): void {
    this.#db
      .prepare(
        `INSERT INTO discord_channel_rules (bot, channel_id, rule) VALUES (?, ?, ?)
         ON CONFLICT DO UPDATE SET rule = excluded.rule`,
      )
      .run(bot, channelId, rule);
  }

  markBackfilled(bot: string, channelId: string, at: number): void {
    this.#db
      .prepare('INSERT OR IGNORE INTO discord_backfilled (bot, channel_id, at) VALUES (?, ?, ?)')
      .run(bot, channelId, at);
  }

  noteForgotten(bot: string, kind: 'user' | 'channel', id: string, at: number): void {
    this.#db
      .prepare(
        `INSERT INTO discord_forgotten_before (bot, kind, id, at) VALUES (?, ?, ?, ?)
         ON CONFLICT DO UPDATE SET at = MAX(at, excluded.at)`,
      )
      .run(bot, kind, id, at);
  }

  noteThread(bot: string, threadId: string, parentId: string, isPublic?: boolean): void {
    this.#db
      .prepare(
        `INSERT INTO discord_threads (bot, thread_id, parent_id, public) VALUES (?, ?, ?, ?)
         ON CONFLICT (bot, thread_id) DO UPDATE SET public = coalesce(excluded.public, public)`,
      )
      .run(bot, threadId, parentId, isPublic === undefined ? null : isPublic ? 1 : 0);
  }

  dropThreads(bot: string, ids: readonly string[]): void {
    const list = JSON.stringify(ids);
    this.#db
      .prepare(
        `DELETE FROM discord_threads WHERE bot = ?
         AND (thread_id IN (SELECT value FROM json_each(?)) OR parent_id IN (SELECT value FROM json_each(?)))`,
      )
      .run(bot, list, list);
  }

  /**
   * Overwritten rather than kept at the greatest: a mark from a clock that ran ahead must not push a later
   * takeover's gap start past the real end of the connection (an older mark only widens the gap read).
   */
  markConnected(bot: string, at: number): void {
    this.#db
      .prepare(
        `INSERT INTO discord_gateway (bot, connected_at) VALUES (?, ?)
         ON CONFLICT DO UPDATE SET connected_at = excluded.connected_at`,
      )
      .run(bot, at);
  }
}
