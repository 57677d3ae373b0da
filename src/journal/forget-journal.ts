/**
 * @module The journal's side of forgetting: find the messages a selector names, drop them, leave tombstones,
 * and mark the chunks that held them for the chunk writer (delete the point, then rewrite what is left).
 */
import { setImmediate } from 'node:timers/promises';
import type { Database } from 'better-sqlite3';
import { JournalHealth } from './journal-health.js';

/**
 * Messages of a bot whose column equals a value. `userId` also matches the agent's replies in that user's
 * direct messages: a person's "forget me" covers both sides of their private conversation.
 */
export interface MessageMatch {
  /** `persona`: a person's messages sent with no user id under that name (SillyTavern's history). */
  readonly field: 'source' | 'userId' | 'channelId' | 'guildId' | 'persona';
  readonly value: string;
}

/** One message to forget: an id in one source, or (no source) that id in every source the caller may reach. */
export interface ForgetTarget {
  readonly id: string;
  readonly source?: string;
}

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

/** Targets forgotten per journal transaction: a few ms of work, then the event loop gets a turn. */
export const FORGET_SLICE = 250;

/** What the slices of one forget have done so far (see forgetSlice). */
export interface ForgetProgress {
  messagesForgotten: number;
  pendingDropped: number;
  /** Chunks with a stored point that held a forgotten message. */
  readonly storedChunks: Set<string>;
  /** Every chunk that held one, marked for delete once. */
  readonly touchedChunks: Set<string>;
}

/** An empty ForgetProgress, for a new forget. */
export function startForget(): ForgetProgress {
  return { messagesForgotten: 0, pendingDropped: 0, storedChunks: new Set(), touchedChunks: new Set() };
}

/** Forget operations over the journal's tables; each public method is one transaction, but forgetMessages. */
export class ForgetJournal {
  readonly #db: Database;
  readonly #health: JournalHealth;

  constructor(db: Database, health: JournalHealth = new JournalHealth()) {
    this.#db = db;
    this.#health = health;
  }

  /** The messages `match` names, as forget targets; limited to `sources` when given (a source-scoped key). */
  findMatching(bot: string, match: MessageMatch, sources?: readonly string[]): ForgetTarget[] {
    const sourceClause = sources ? ` AND source IN (${sources.map(() => '?').join(', ')})` : '';
    const sourceArgs = sources ?? [];
    const query = (where: string, ...args: unknown[]): ForgetTarget[] =>
      (
        this.#db
          .prepare(`SELECT source, message_id FROM messages WHERE bot = ? AND ${where}${sourceClause}`)
          .all(bot, ...args, ...sourceArgs) as { source: string; message_id: string }[]
      ).map((row) => ({ source: row.source, id: row.message_id }));
    switch (match.field) {
      case 'source':
        return query('source = ?', match.value);
      case 'channelId':
        return query('channel_id = ?', match.value);
      case 'guildId':
        return query('guild_id = ?', match.value);
      case 'persona':
        return query("user_id IS NULL AND speaker_kind = 'user' AND speaker_name = ?", match.value);
      case 'userId':
        return query(
          `(user_id = ? OR (speaker_kind = 'self' AND is_dm = 1 AND conversation IN
             (SELECT conversation FROM messages WHERE bot = ? AND user_id = ? AND is_dm = 1)))`,
          match.value,
          bot,
          match.value,
        );
    }
  }

  /**
   * Removes the targeted messages, tombstones them, and marks the chunks that held them for delete/rewrite.
   * A target without a source reaches that id in every source `sources` allows (all when unset); its
   * tombstone holds for those sources, so the id never comes back through them.
   *
   * In transactions of FORGET_SLICE targets (forgetSlice) with a turn of the event loop between them, so
   * forgetting a whole source of a big journal never freezes the process. A crash part-way leaves the earlier
   * slices forgotten and the request unacknowledged; repeating it finishes the rest.
   */
  async forgetMessages(
    bot: string,
    targets: readonly ForgetTarget[],
    now: number,
    sources?: readonly string[],
  ): Promise<JournalForgetResult> {
    const progress = startForget();
    for (let start = 0; start < targets.length; start += FORGET_SLICE) {
      if (start > 0) await setImmediate();
      this.forgetSlice(bot, targets.slice(start, start + FORGET_SLICE), now, sources, progress);
    }
    return this.finishForget(progress);
  }

  /**
   * One slice of forgetMessages, in one transaction, adding to `progress`: the SQLite port runs each slice
   * through its gate on its own, so a /save or a recall waits for one slice, not for the whole forget.
   */
  forgetSlice(
    bot: string,
    slice: readonly ForgetTarget[],
    now: number,
    sources: readonly string[] | undefined,
    progress: ForgetProgress,
  ): void {
    const find = this.#db.prepare(
      `SELECT m.source, m.chunk_id, c.stored_at FROM messages m LEFT JOIN chunks c ON c.chunk_id = m.chunk_id
       WHERE m.bot = ? AND m.message_id = ?`,
    );
    const remove = this.#db.prepare('DELETE FROM messages WHERE bot = ? AND source = ? AND message_id = ?');
    const markForDelete = this.#db.prepare(
      'UPDATE chunks SET needs_delete = 1, revision = revision + 1, next_attempt_at = 0, attempts = 0 WHERE chunk_id = ?',
    );
    const readTombstone = this.#db.prepare(
      'SELECT sources FROM forgotten_messages WHERE bot = ? AND message_id = ?',
    );
    const writeTombstone = this.#db.prepare(
      `INSERT INTO forgotten_messages (bot, message_id, forgotten_at, sources) VALUES (?, ?, ?, ?)
       ON CONFLICT (bot, message_id) DO UPDATE SET sources = excluded.sources`,
    );
    /** Widens the tombstone of `id` by `more` sources (undefined: every source). It never narrows. */
    const tombstone = (id: string, more: readonly string[] | undefined) => {
      const existing = readTombstone.get(bot, id) as { sources: string | null } | undefined;
      if (existing !== undefined && existing.sources === null) return;
      const merged =
        more === undefined
          ? null
          : JSON.stringify([
              ...new Set([...(existing ? (JSON.parse(existing.sources!) as string[]) : []), ...more]),
            ]);
      writeTombstone.run(bot, id, now, merged);
    };
    const run = this.#db.transaction(() => {
      const touchedHere = new Set<string>();
      for (const target of slice) {
        const allowed = target.source !== undefined ? [target.source] : sources;
        if (target.source !== undefined && sources && !sources.includes(target.source)) continue;
        tombstone(target.id, allowed);
        const rows = find.all(bot, target.id) as {
          source: string;
          chunk_id: string | null;
          stored_at: number | null;
        }[];
        for (const row of rows) {
          if (allowed !== undefined && !allowed.includes(row.source)) continue;
          remove.run(bot, row.source, target.id);
          progress.messagesForgotten += 1;
          if (row.chunk_id === null || row.stored_at === null) progress.pendingDropped += 1;
          if (row.chunk_id !== null) {
            touchedHere.add(row.chunk_id);
            if (row.stored_at !== null) progress.storedChunks.add(row.chunk_id);
          }
        }
      }
      for (const chunkId of touchedHere) {
        if (!progress.touchedChunks.has(chunkId)) markForDelete.run(chunkId);
        progress.touchedChunks.add(chunkId);
      }
    });
    this.#health.write(() => run.immediate());
  }

  /** The result of a forget whose slices are all done (a chunk emptied across two slices is one delete). */
  finishForget(progress: ForgetProgress): JournalForgetResult {
    const remaining = this.#db.prepare('SELECT COUNT(*) AS n FROM messages WHERE chunk_id = ?');
    let pointsDeleted = 0;
    let pointsRewritten = 0;
    for (const chunkId of progress.storedChunks) {
      if ((remaining.get(chunkId) as { n: number }).n === 0) pointsDeleted += 1;
      else pointsRewritten += 1;
    }
    return {
      messagesForgotten: progress.messagesForgotten,
      pendingDropped: progress.pendingDropped,
      pointsDeleted,
      pointsRewritten,
      chunkIds: [...progress.touchedChunks],
    };
  }

  /** The subset of `messageIds` journaled for `bot` in `source` (what a forget of them would reach). */
  journaledAmong(bot: string, source: string, messageIds: readonly string[]): Set<string> {
    return this.#selectIds(
      messageIds,
      (marks) => `SELECT message_id FROM messages WHERE bot = ? AND source = ? AND message_id IN (${marks})`,
      [bot, source],
    );
  }

  /**
   * What `source` journaled for `bot` in `channelId` with `ts` in [fromTs, toTs], oldest first. A scan of the
   * bot's rows of that source (no index on channels): the Discord gap back-fill asks once per channel read.
   */
  journaledInChannel(
    bot: string,
    source: string,
    channelId: string,
    fromTs: number,
    toTs: number,
  ): { id: string; ts: number; text: string }[] {
    return this.#db
      .prepare(
        `SELECT message_id AS id, ts, text FROM messages
         WHERE bot = ? AND source = ? AND channel_id = ? AND ts >= ? AND ts <= ? ORDER BY ts, message_id`,
      )
      .all(bot, source, channelId, fromTs, toTs) as { id: string; ts: number; text: string }[];
  }

  /** The subset of `messageIds` that were forgotten for `bot`. */
  forgottenAmong(bot: string, messageIds: readonly string[]): Set<string> {
    return this.#selectIds(
      messageIds.filter((id) => id !== ''),
      (marks) =>
        // A tombstone whose message is still journaled belongs to another source (a scoped forget).
        `SELECT f.message_id FROM forgotten_messages f WHERE f.bot = ? AND f.message_id IN (${marks})
         AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.bot = f.bot AND m.message_id = f.message_id)`,
      [bot],
    );
  }

  /** Runs an `IN (...)` query over `ids` in slices (SQLite limits bound parameters per statement). */
  #selectIds(ids: readonly string[], sql: (marks: string) => string, args: unknown[]): Set<string> {
    const found = new Set<string>();
    const unique = [...new Set(ids)];
    for (let start = 0; start < unique.length; start += 500) {
      const slice = unique.slice(start, start + 500);
      const rows = this.#db.prepare(sql(slice.map(() => '?').join(', '))).all(...args, ...slice) as {
        message_id: string;
      }[];
      for (const row of rows) found.add(row.message_id);
    }
    return found;
  }

  recordAudit(entry: Omit<ForgetAuditEntry, 'id'>): void {
    this.#health.write(() =>
      this.#db
        .prepare('INSERT INTO forget_audit (at, actor, bot, selector, result) VALUES (?, ?, ?, ?, ?)')
        .run(entry.at, entry.actor, entry.bot, JSON.stringify(entry.selector), JSON.stringify(entry.result)),
    );
  }

  /** Newest first. */
  listAudit(options: { bot?: string; limit: number }): ForgetAuditEntry[] {
    const rows = this.#db
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
