/**
 * @module What the Discord interface must remember across restarts, in its own small SQLite file beside the
 * journal: who opted out of recording, the channel rules `/memory channel allow|deny` set, the channels
 * back-filled, and the parent of each thread recorded from (Discord forgets archived threads' parents).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3, { type Database } from 'better-sqlite3';

export type ChannelRule = 'allow' | 'deny';

/** Opt-outs and channel rules of one memory-pool bot; every method is one statement. */
export class DiscordState {
  readonly #db: Database;
  readonly #bot: string;

  private constructor(db: Database, bot: string) {
    this.#db = db;
    this.#bot = bot;
  }

  /** Opens (or creates) `discord.sqlite` in `dataDir`. */
  static open(dataDir: string, bot: string): DiscordState {
    mkdirSync(dataDir, { recursive: true });
    const db = new BetterSqlite3(join(dataDir, 'discord.sqlite'));
    db.pragma('journal_mode = WAL');
    // An opt-out is a promise to a person: fsynced like the journal's saves.
    db.pragma('synchronous = FULL');
    db.exec(`
      CREATE TABLE IF NOT EXISTS opt_outs (
        bot TEXT NOT NULL, user_id TEXT NOT NULL, at INTEGER NOT NULL, PRIMARY KEY (bot, user_id));
      CREATE TABLE IF NOT EXISTS channel_rules (
        bot TEXT NOT NULL, channel_id TEXT NOT NULL, rule TEXT NOT NULL CHECK (rule IN ('allow', 'deny')),
        PRIMARY KEY (bot, channel_id));
      CREATE TABLE IF NOT EXISTS backfilled (
        bot TEXT NOT NULL, channel_id TEXT NOT NULL, at INTEGER NOT NULL, PRIMARY KEY (bot, channel_id));
      CREATE TABLE IF NOT EXISTS forgotten_before (
        bot TEXT NOT NULL, kind TEXT NOT NULL CHECK (kind IN ('user', 'channel')), id TEXT NOT NULL,
        at INTEGER NOT NULL, PRIMARY KEY (bot, kind, id));
      CREATE TABLE IF NOT EXISTS threads (
        bot TEXT NOT NULL, thread_id TEXT NOT NULL, parent_id TEXT NOT NULL, PRIMARY KEY (bot, thread_id));`);
    // Whether a thread is public (1) or private (0); rows from before the column stay unknown (NULL).
    const columns = db.prepare('PRAGMA table_info(threads)').all() as { name: string }[];
    if (!columns.some((column) => column.name === 'public')) {
      db.exec('ALTER TABLE threads ADD COLUMN public INTEGER');
    }
    return new DiscordState(db, bot);
  }

  isOptedOut(userId: string): boolean {
    return (
      this.#db.prepare('SELECT 1 FROM opt_outs WHERE bot = ? AND user_id = ?').get(this.#bot, userId) !==
      undefined
    );
  }

  /** Records the choice; returns whether it changed anything. */
  setOptedOut(userId: string, optedOut: boolean, at: number): boolean {
    const statement = optedOut
      ? this.#db.prepare('INSERT OR IGNORE INTO opt_outs (bot, user_id, at) VALUES (?, ?, ?)')
      : this.#db.prepare('DELETE FROM opt_outs WHERE bot = ? AND user_id = ?');
    return (optedOut ? statement.run(this.#bot, userId, at) : statement.run(this.#bot, userId)).changes > 0;
  }

  setChannelRule(channelId: string, rule: ChannelRule): void {
    this.#db
      .prepare(
        'INSERT INTO channel_rules (bot, channel_id, rule) VALUES (?, ?, ?) ON CONFLICT DO UPDATE SET rule = ?',
      )
      .run(this.#bot, channelId, rule, rule);
  }

  channelRules(): ReadonlyMap<string, ChannelRule> {
    const rows = this.#db
      .prepare('SELECT channel_id, rule FROM channel_rules WHERE bot = ?')
      .all(this.#bot) as {
      channel_id: string;
      rule: ChannelRule;
    }[];
    return new Map(rows.map((row) => [row.channel_id, row.rule]));
  }

  hasBackfilled(channelId: string): boolean {
    return (
      this.#db
        .prepare('SELECT 1 FROM backfilled WHERE bot = ? AND channel_id = ?')
        .get(this.#bot, channelId) !== undefined
    );
  }

  /** Marked once a channel's back-fill completed, so it is read once (and again after a crash half-way). */
  markBackfilled(channelId: string, at: number): void {
    this.#db
      .prepare('INSERT OR IGNORE INTO backfilled (bot, channel_id, at) VALUES (?, ?, ?)')
      .run(this.#bot, channelId, at);
  }

  /**
   * Remembers a confirmed `/memory forget-me` or `forget-channel`: a message of that person (or channel) written
   * before it is never recorded again, even when a back-fill or a re-delivered event brings it afterwards.
   */
  noteForgotten(kind: 'user' | 'channel', id: string, at: number): void {
    this.#db
      .prepare(
        'INSERT INTO forgotten_before (bot, kind, id, at) VALUES (?, ?, ?, ?) ON CONFLICT DO UPDATE SET at = MAX(at, excluded.at)',
      )
      .run(this.#bot, kind, id, at);
  }

  /**
   * Whether a message written at `createdAt` by `userId` in `channelIds` (its channel, and a thread's parent:
   * forgetting a channel covers its threads, those unknown at the time too) was covered by such a forget.
   */
  wasForgotten(userId: string, channelIds: readonly string[], createdAt: number): boolean {
    return (
      this.#db
        .prepare(
          `SELECT 1 FROM forgotten_before WHERE bot = ? AND at >= ?
           AND ((kind = 'user' AND id = ?) OR (kind = 'channel' AND id IN (SELECT value FROM json_each(?))))`,
        )
        .get(this.#bot, createdAt, userId, JSON.stringify(channelIds)) !== undefined
    );
  }

  /** Remembers a thread recorded from: deleting its parent channel forgets it too, cached or not. */
  noteThread(threadId: string, parentId: string, isPublic?: boolean): void {
    this.#db
      .prepare(
        `INSERT INTO threads (bot, thread_id, parent_id, public) VALUES (?, ?, ?, ?)
         ON CONFLICT (bot, thread_id) DO UPDATE SET public = coalesce(excluded.public, public)`,
      )
      .run(this.#bot, threadId, parentId, isPublic === undefined ? null : isPublic ? 1 : 0);
  }

  /** Drops deleted threads (a deleted channel's too): nothing of theirs is left to recall or to forget. */
  dropThreads(ids: readonly string[]): void {
    this.#db
      .prepare(
        `DELETE FROM threads WHERE bot = ?
         AND (thread_id IN (SELECT value FROM json_each(?)) OR parent_id IN (SELECT value FROM json_each(?)))`,
      )
      .run(this.#bot, JSON.stringify(ids), JSON.stringify(ids));
  }

  /**
   * The public threads recorded from, by parent channel: a reader of the parent may read them, cached or
   * archived (private ones, and those recorded before their kind was kept, are not listed).
   */
  publicThreadsByParent(): Map<string, string[]> {
    const rows = this.#db
      .prepare('SELECT thread_id, parent_id FROM threads WHERE bot = ? AND public = 1')
      .all(this.#bot) as { thread_id: string; parent_id: string }[];
    const byParent = new Map<string, string[]>();
    for (const row of rows) {
      const threads = byParent.get(row.parent_id);
      if (threads === undefined) byParent.set(row.parent_id, [row.thread_id]);
      else threads.push(row.thread_id);
    }
    return byParent;
  }

  parentOf(threadId: string): string | undefined {
    const row = this.#db
      .prepare('SELECT parent_id FROM threads WHERE bot = ? AND thread_id = ?')
      .get(this.#bot, threadId) as { parent_id: string } | undefined;
    return row?.parent_id;
  }

  threadsOf(parentId: string): string[] {
    const rows = this.#db
      .prepare('SELECT thread_id FROM threads WHERE bot = ? AND parent_id = ?')
      .all(this.#bot, parentId) as { thread_id: string }[];
    return rows.map((row) => row.thread_id);
  }

  close(): void {
    this.#db.close();
  }
}
