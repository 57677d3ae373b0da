/**
 * @module Forgetting in Postgres, as forget-journal.ts does it in SQLite. Each slice locks its (bot, id)s
 * as a save does, so a save racing with a forget either lands first (and is forgotten) or sees the tombstone.
 */
import type { ForgetAuditEntry, ForgetTarget, JournalForgetResult, MessageMatch } from '../forget-journal.js';
import type { ChannelMessage, JournalForgetting } from '../journal.js';
import type { PgSession } from './postgres-session.js';
import { encodeText } from './postgres-text.js';

/** Targets per transaction, as in SQLite: a long forget never holds its locks for long. */
const FORGET_SLICE = 250;

const MATCH_COLUMN = { source: 'source', channelId: 'channel_id', guildId: 'guild_id' } as const;

export class PostgresForgetting implements JournalForgetting {
  readonly #db: PgSession;

  constructor(db: PgSession) {
    this.#db = db;
  }

  async findMatching(bot: string, match: MessageMatch, sources?: readonly string[]): Promise<ForgetTarget[]> {
    const where =
      match.field === 'userId'
        ? `(user_id = $2 OR (speaker_kind = 'self' AND is_dm = 1 AND conversation IN
             (SELECT conversation FROM messages WHERE bot = $1 AND user_id = $2 AND is_dm = 1)))`
        : match.field === 'persona'
          ? "user_id IS NULL AND speaker_kind = 'user' AND speaker_name = $2"
          : `${MATCH_COLUMN[match.field]} = $2`;
    // speaker_name is stored escaped (postgres-text.ts).
    const value = match.field === 'persona' ? encodeText(match.value) : match.value;
    const rows = await this.#db.rows<{ source: string; message_id: string }>(
      `SELECT source, message_id FROM messages WHERE bot = $1 AND ${where}
       AND ($3::text[] IS NULL OR source = ANY($3))`,
      [bot, value, sources ?? null],
    );
    return rows.map((row) => ({ source: row.source, id: row.message_id }));
  }

  async forgetMessages(
    bot: string,
    targets: readonly ForgetTarget[],
    now: number,
    sources?: readonly string[],
  ): Promise<JournalForgetResult> {
    let messagesForgotten = 0;
    let pendingDropped = 0;
    const storedChunks = new Set<string>();
    const touchedChunks = new Set<string>();
    for (let start = 0; start < targets.length; start += FORGET_SLICE) {
      const slice = targets.slice(start, start + FORGET_SLICE);
      await this.#db.transaction(async (tx) => {
        await tx.lockMessageIds(
          bot,
          slice.map((target) => target.id),
        );
        const touchedHere = new Set<string>();
        for (const target of slice) {
          const allowed = target.source !== undefined ? [target.source] : sources;
          if (target.source !== undefined && sources && !sources.includes(target.source)) continue;
          await widenTombstone(tx, bot, target.id, allowed, now);
          const rows = await tx.rows<{ source: string; chunk_id: string | null; stored_at: number | null }>(
            `DELETE FROM messages m USING (SELECT m2.source, c.stored_at FROM messages m2
               LEFT JOIN chunks c ON c.chunk_id = m2.chunk_id WHERE m2.bot = $1 AND m2.message_id = $2) AS found
             WHERE m.bot = $1 AND m.message_id = $2 AND m.source = found.source
               AND ($3::text[] IS NULL OR m.source = ANY($3))
             RETURNING m.source, m.chunk_id, found.stored_at`,
            [bot, target.id, allowed ?? null],
          );
          for (const row of rows) {
            messagesForgotten += 1;
            if (row.chunk_id === null || row.stored_at === null) pendingDropped += 1;
            if (row.chunk_id !== null) {
              touchedHere.add(row.chunk_id);
              if (row.stored_at !== null) storedChunks.add(row.chunk_id);
            }
          }
        }
        const marked = [...touchedHere].filter((id) => !touchedChunks.has(id));
        // The revision bump is what makes a write of the old text, racing on another replica, not current.
        // Rows locked in chunk id order first, as an editing save takes them, so the two never deadlock.
        await tx.lockChunks(marked);
        await tx.run(
          `UPDATE chunks SET needs_delete = 1, revision = revision + 1, next_attempt_at = 0, attempts = 0
           WHERE chunk_id = ANY($1)`,
          [marked],
        );
        for (const id of touchedHere) touchedChunks.add(id);
      });
    }
    let pointsDeleted = 0;
    let pointsRewritten = 0;
    const remaining = await this.#db.rows<{ chunk_id: string }>(
      'SELECT DISTINCT chunk_id FROM messages WHERE chunk_id = ANY($1)',
      [[...storedChunks]],
    );
    const kept = new Set(remaining.map((row) => row.chunk_id));
    for (const chunkId of storedChunks) {
      if (kept.has(chunkId)) pointsRewritten += 1;
      else pointsDeleted += 1;
    }
    return {
      messagesForgotten,
      pendingDropped,
      pointsDeleted,
      pointsRewritten,
      chunkIds: [...touchedChunks],
    };
  }

  async journaledAmong(bot: string, source: string, messageIds: readonly string[]): Promise<Set<string>> {
    const rows = await this.#db.rows<{ message_id: string }>(
      'SELECT message_id FROM messages WHERE bot = $1 AND source = $2 AND message_id = ANY($3)',
      [bot, source, [...new Set(messageIds)]],
    );
    return new Set(rows.map((row) => row.message_id));
  }

  async journaledInChannel(
    bot: string,
    source: string,
    channelId: string,
    fromTs: number,
    toTs: number,
  ): Promise<ChannelMessage[]> {
    return this.#db.rows<ChannelMessage>(
      `SELECT message_id AS id, ts, text FROM messages
       WHERE bot = $1 AND source = $2 AND channel_id = $3 AND ts >= $4 AND ts <= $5 ORDER BY ts, message_id`,
      [bot, source, channelId, fromTs, toTs],
    );
  }

  async forgottenAmong(bot: string, messageIds: readonly string[]): Promise<Set<string>> {
    const rows = await this.#db.rows<{ message_id: string }>(
      // A tombstone whose message is still journaled belongs to another source (a scoped forget).
      `SELECT f.message_id FROM forgotten_messages f WHERE f.bot = $1 AND f.message_id = ANY($2)
       AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.bot = f.bot AND m.message_id = f.message_id)`,
      [bot, [...new Set(messageIds.filter((id) => id !== ''))]],
    );
    return new Set(rows.map((row) => row.message_id));
  }

  async recordAudit(entry: Omit<ForgetAuditEntry, 'id'>): Promise<void> {
    await this.#db.run(
      'INSERT INTO forget_audit (at, actor, bot, selector, result) VALUES ($1, $2, $3, $4, $5)',
      [entry.at, entry.actor, entry.bot, JSON.stringify(entry.selector), JSON.stringify(entry.result)],
    );
  }

  async listAudit(options: { bot?: string; limit: number }): Promise<ForgetAuditEntry[]> {
    const rows = await this.#db.rows<{
      id: number;
      at: number;
      actor: string;
      bot: string;
      selector: string;
      result: string;
    }>(
      `SELECT id, at, actor, bot, selector, result FROM forget_audit
       WHERE ($1::text IS NULL OR bot = $1) ORDER BY id DESC LIMIT $2`,
      [options.bot ?? null, options.limit],
    );
    return rows.map((r) => ({ ...r, selector: JSON.parse(r.selector), result: JSON.parse(r.result) }));
  }
}

/** Widens the tombstone of `id` by `more` sources (undefined: every source); it never narrows. */
async function widenTombstone(
  tx: PgSession,
  bot: string,
  id: string,
  more: readonly string[] | undefined,
  now: number,
): Promise<void> {
  const existing = await tx.row<{ sources: string | null }>(
    'SELECT sources FROM forgotten_messages WHERE bot = $1 AND message_id = $2',
    [bot, id],
  );
  if (existing !== undefined && existing.sources === null) return;
  const merged =
    more === undefined
      ? null
      : JSON.stringify([
          ...new Set([...(existing ? (JSON.parse(existing.sources!) as string[]) : []), ...more]),
        ]);
  await tx.run(
    `INSERT INTO forgotten_messages (bot, message_id, forgotten_at, sources) VALUES ($1, $2, $3, $4)
     ON CONFLICT (bot, message_id) DO UPDATE SET sources = excluded.sources`,
    [bot, id, now, merged],
  );
}
