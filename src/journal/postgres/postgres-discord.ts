/** @module The Discord state in the Postgres journal: the SQLite tables' columns and meanings, one statement a call. */
import type { ChannelRule, DiscordStateRows, JournalDiscord } from '../journal-discord.js';
import { type PgSession, SERVER_NOW_MS } from './postgres-session.js';

/** A commit is durable when it returns (synchronous_commit), so writes need no flush. */
export class PostgresDiscord implements JournalDiscord {
  readonly #db: PgSession;

  constructor(db: PgSession) {
    this.#db = db;
  }

  /** One transaction, so the rows read belong together. */
  readState(bot: string): Promise<DiscordStateRows> {
    return this.#db.transaction(async (tx) => {
      const optedOut = await tx.rows<{ user_id: string }>(
        'SELECT user_id FROM discord_opt_outs WHERE bot = $1',
        [bot],
      );
      const rules = await tx.rows<{ channel_id: string; rule: ChannelRule }>(
        'SELECT channel_id, rule FROM discord_channel_rules WHERE bot = $1',
        [bot],
      );
      const backfilled = await tx.rows<{ channel_id: string }>(
        'SELECT channel_id FROM discord_backfilled WHERE bot = $1',
        [bot],
      );
      const forgotten = await tx.rows<{ kind: 'user' | 'channel'; id: string; at: number }>(
        'SELECT kind, id, at FROM discord_forgotten_before WHERE bot = $1',
        [bot],
      );
      const threads = await tx.rows<{ thread_id: string; parent_id: string; public: number | null }>(
        'SELECT thread_id, parent_id, public FROM discord_threads WHERE bot = $1',
        [bot],
      );
      const gateway = await tx.row<{ connected_at: number }>(
        'SELECT connected_at FROM discord_gateway WHERE bot = $1',
        [bot],
      );
      return {
        optedOut: optedOut.map((r) => r.user_id),
        channelRules: rules.map((r) => ({ channelId: r.channel_id, rule: r.rule })),
        backfilled: backfilled.map((r) => r.channel_id),
        forgotten,
        threads: threads.map((r) => ({
          threadId: r.thread_id,
          parentId: r.parent_id,
          isPublic: r.public === null ? null : r.public === 1,
        })),
        connectedUntil: gateway?.connected_at,
      };
    });
  }

  async setOptedOut(bot: string, userId: string, optedOut: boolean, at: number): Promise<boolean> {
    const changed = optedOut
      ? await this.#db.run(
          'INSERT INTO discord_opt_outs (bot, user_id, at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
          [bot, userId, at],
        )
      : await this.#db.run('DELETE FROM discord_opt_outs WHERE bot = $1 AND user_id = $2', [bot, userId]);
    return changed > 0;
  }

  async setChannelRule(bot: string, channelId: string, rule: ChannelRule): Promise<void> {
    await this.#db.run(
      `INSERT INTO discord_channel_rules (bot, channel_id, rule) VALUES ($1, $2, $3)
       ON CONFLICT (bot, channel_id) DO UPDATE SET rule = excluded.rule`,
      [bot, channelId, rule],
    );
  }

  async markBackfilled(bot: string, channelId: string, at: number): Promise<void> {
    await this.#db.run(
      'INSERT INTO discord_backfilled (bot, channel_id, at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
      [bot, channelId, at],
    );
  }

  async noteForgotten(bot: string, kind: 'user' | 'channel', id: string, at: number): Promise<void> {
    await this.#db.run(
      `INSERT INTO discord_forgotten_before (bot, kind, id, at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (bot, kind, id) DO UPDATE SET at = GREATEST(discord_forgotten_before.at, excluded.at)`,
      [bot, kind, id, at],
    );
  }

  async noteThread(bot: string, threadId: string, parentId: string, isPublic?: boolean): Promise<void> {
    await this.#db.run(
      `INSERT INTO discord_threads (bot, thread_id, parent_id, public) VALUES ($1, $2, $3, $4)
       ON CONFLICT (bot, thread_id) DO UPDATE SET public = coalesce(excluded.public, discord_threads.public)`,
      [bot, threadId, parentId, isPublic === undefined ? null : isPublic ? 1 : 0],
    );
  }

  async dropThreads(bot: string, ids: readonly string[]): Promise<void> {
    await this.#db.run(
      'DELETE FROM discord_threads WHERE bot = $1 AND (thread_id = ANY($2) OR parent_id = ANY($2))',
      [bot, [...ids]],
    );
  }

  /**
   * On the server's clock, as the leases are, and overwritten rather than kept at the greatest: a replica whose
   * clock ran ahead must not push the gap start of a later takeover past the real end of the connection.
   */
  async markConnected(bot: string, at: number): Promise<void> {
    await this.#db.run(
      `INSERT INTO discord_gateway (bot, connected_at) VALUES ($1, COALESCE($2::bigint, ${SERVER_NOW_MS}))
       ON CONFLICT (bot) DO UPDATE SET connected_at = excluded.connected_at`,
      [bot, this.#db.expiryNow(at)],
    );
  }
}
