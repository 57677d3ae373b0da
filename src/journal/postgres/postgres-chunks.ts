/**
 * @module The chunk queue in Postgres: chunk-queue.ts's statements, and claims so that replicas writing
 * chunks side by side never take the same one (FOR UPDATE SKIP LOCKED, with an expiry for a killed holder).
 */
import type { PlannedChunk } from '../chunk-queue.js';
import { currentAmong, PLANNED_CHUNK_COLUMNS, type PlannedChunkRow, toPlannedChunk } from '../chunk-rows.js';
import type { ClaimedRevision, JournalChunks } from '../journal.js';
import type { MessageRow } from '../message-rows.js';
import { type PgSession, SERVER_NOW_MS } from './postgres-session.js';
import { encodeText, toDecodedMessage } from './postgres-text.js';

const WAITING = "(state = 'planned' OR needs_delete = 1)";
/** A claim's `now` ($n): the server's clock unless the caller's was asked for (see PgSession.expiryNow). */
const NOW = (n: number) => `COALESCE($${n}::bigint, ${SERVER_NOW_MS})`;
/** No live write claim on the chunk at $3 (its write could land after a delete). */
const UNCLAIMED = `NOT EXISTS (SELECT 1 FROM chunk_claims k WHERE k.chunk_id = chunks.chunk_id AND k.expires_at > ${NOW(3)})`;

export class PostgresChunks implements JournalChunks {
  readonly #db: PgSession;

  constructor(db: PgSession) {
    this.#db = db;
  }

  async planChunk(
    chunk: {
      chunkId: string;
      bot: string;
      collection: string;
      source: string;
      messageIds: readonly string[];
    },
    now: number,
  ): Promise<void> {
    await this.#db.transaction(async (tx) => {
      // The messages' id locks first, as a save and a forget take them: a forget of one of them waits for
      // this plan (or this for it) instead of the two locking the chunk and its messages in opposite orders.
      await tx.lockMessageIds(chunk.bot, chunk.messageIds);
      await tx.run(
        `INSERT INTO chunks (chunk_id, bot, collection, state, planned_at) VALUES ($1, $2, $3, 'planned', $4)
         ON CONFLICT (chunk_id) DO UPDATE SET state = 'planned', next_attempt_at = 0`,
        [chunk.chunkId, chunk.bot, chunk.collection, now],
      );
      await tx.run(
        'UPDATE messages SET chunk_id = $1 WHERE bot = $2 AND source = $3 AND message_id = ANY($4)',
        [chunk.chunkId, chunk.bot, chunk.source, chunk.messageIds],
      );
    });
  }

  dueChunks(now: number, limit: number): Promise<PlannedChunk[]> {
    return this.#select(
      "state = 'planned' AND needs_delete = 0 AND next_attempt_at <= $1 ORDER BY planned_at LIMIT $2",
      [now, limit],
    );
  }

  plannedChunks(chunkIds: readonly string[]): Promise<PlannedChunk[]> {
    return this.#inOrder(chunkIds, "state = 'planned' AND needs_delete = 0");
  }

  storedChunks(bot: string): Promise<PlannedChunk[]> {
    return this.#select("bot = $1 AND state = 'stored' AND needs_delete = 0 ORDER BY planned_at", [bot]);
  }

  storedAmong(chunkIds: readonly string[]): Promise<PlannedChunk[]> {
    return this.#inOrder(chunkIds, "state = 'stored' AND needs_delete = 0");
  }

  async hasChunk(chunkId: string): Promise<boolean> {
    return (await this.#db.row('SELECT 1 FROM chunks WHERE chunk_id = $1', [chunkId])) !== undefined;
  }

  dueDeletions(now: number, limit: number): Promise<PlannedChunk[]> {
    return this.#select(
      `needs_delete = 1 AND next_attempt_at <= $1 AND ${UNCLAIMED} ORDER BY planned_at LIMIT $2`,
      [now, limit, this.#db.expiryNow(now)],
    );
  }

  async makeDeletionsDue(bot: string): Promise<void> {
    await this.#db.run('UPDATE chunks SET next_attempt_at = 0 WHERE bot = $1 AND needs_delete = 1', [bot]);
  }

  async hasPendingDeletions(bot: string): Promise<boolean> {
    const row = await this.#db.row('SELECT 1 FROM chunks WHERE bot = $1 AND needs_delete = 1 LIMIT 1', [bot]);
    return row !== undefined;
  }

  async hasUnclaimedDeletions(bot: string, now: number): Promise<boolean> {
    const row = await this.#db.row(
      `SELECT 1 FROM chunks WHERE bot = $1 AND needs_delete = 1 AND NOT EXISTS
         (SELECT 1 FROM chunk_claims k WHERE k.chunk_id = chunks.chunk_id AND k.expires_at > ${NOW(2)}) LIMIT 1`,
      [bot, this.#db.expiryNow(now)],
    );
    return row !== undefined;
  }

  async nextChunkDueAt(): Promise<number | undefined> {
    const row = await this.#db.row<{ due: number | null }>(
      `SELECT MIN(next_attempt_at) AS due FROM chunks WHERE ${WAITING}`,
    );
    return row?.due ?? undefined;
  }

  async chunkMessages(chunkId: string) {
    const rows = await this.#db.rows<MessageRow>(
      'SELECT * FROM messages WHERE chunk_id = $1 ORDER BY ts, arrived_at, message_id',
      [chunkId],
    );
    return rows.map(toDecodedMessage);
  }

  async makeChunksDue(chunkIds: readonly string[]): Promise<void> {
    await this.#db.run(`UPDATE chunks SET next_attempt_at = 0 WHERE chunk_id = ANY($1) AND ${WAITING}`, [
      chunkIds,
    ]);
  }

  async resetRetryDelays(): Promise<void> {
    await this.#db.run(`UPDATE chunks SET next_attempt_at = 0 WHERE ${WAITING}`);
  }

  async markChunkStored(chunkId: string, revision: number, now: number): Promise<boolean> {
    const changed = await this.#db.run(
      `UPDATE chunks SET state = 'stored', stored_at = $1, last_error = NULL, attempts = 0
       WHERE chunk_id = $2 AND revision = $3 AND needs_delete = 0`,
      [now, chunkId, revision],
    );
    return changed === 1;
  }

  async requeueStaleWrite(
    chunk: { chunkId: string; bot: string; collection: string; revision: number },
    now: number,
  ): Promise<void> {
    await this.#db.transaction(async (tx) => {
      const row = await tx.row<{ state: string; needs_delete: number }>(
        'SELECT state, needs_delete FROM chunks WHERE chunk_id = $1 FOR UPDATE',
        [chunk.chunkId],
      );
      if (row === undefined) {
        await tx.run(
          `INSERT INTO chunks (chunk_id, bot, collection, state, revision, needs_delete, planned_at)
           VALUES ($1, $2, $3, 'stored', $4, 1, $5) ON CONFLICT (chunk_id) DO UPDATE SET needs_delete = 1, next_attempt_at = 0`,
          [chunk.chunkId, chunk.bot, chunk.collection, chunk.revision + 1, now],
        );
      } else if (row.state === 'stored' && row.needs_delete === 0) {
        await tx.run("UPDATE chunks SET state = 'planned', next_attempt_at = 0 WHERE chunk_id = $1", [
          chunk.chunkId,
        ]);
      }
    });
  }

  async markChunkDeleted(chunkId: string, revision: number, now: number): Promise<void> {
    await this.#db.transaction(async (tx) => {
      // The chunk row is locked first, so a forget or edit of it waits for this settle (or this for it).
      await tx.run('SELECT 1 FROM chunks WHERE chunk_id = $1 FOR UPDATE', [chunkId]);
      await tx.run(`DELETE FROM chunk_claims WHERE chunk_id = $1 AND expires_at <= ${NOW(2)}`, [
        chunkId,
        tx.expiryNow(now),
      ]);
      const claimed = await tx.row('SELECT 1 FROM chunk_claims WHERE chunk_id = $1', [chunkId]);
      if (claimed !== undefined) return; // a live write may land after this delete: it stays due
      const left = await tx.row<{ n: number }>('SELECT COUNT(*) AS n FROM messages WHERE chunk_id = $1', [
        chunkId,
      ]);
      if (left?.n === 0) {
        await tx.run('DELETE FROM chunks WHERE chunk_id = $1 AND revision = $2', [chunkId, revision]);
      } else {
        await tx.run(
          `UPDATE chunks SET needs_delete = 0, state = 'planned', next_attempt_at = 0, attempts = 0, stored_at = NULL
           WHERE chunk_id = $1 AND revision = $2`,
          [chunkId, revision],
        );
      }
    });
  }

  async markChunkFailed(
    chunkId: string,
    revision: number,
    error: string,
    nextAttemptAt: number,
  ): Promise<void> {
    await this.#db.run(
      'UPDATE chunks SET attempts = attempts + 1, last_error = $1, next_attempt_at = $2 WHERE chunk_id = $3 AND revision = $4',
      [encodeText(error), nextAttemptAt, chunkId, revision],
    );
  }

  claimDueChunks(holder: string, now: number, limit: number, leaseMs: number): Promise<PlannedChunk[]> {
    return this.#claim(holder, now, leaseMs, 'c.next_attempt_at <= $4 ORDER BY c.planned_at LIMIT $5', [
      now,
      limit,
    ]);
  }

  /** As claimDueChunks, among `chunkIds` and whatever their due time, in the order asked. */
  async claimChunks(
    holder: string,
    chunkIds: readonly string[],
    now: number,
    leaseMs: number,
  ): Promise<PlannedChunk[]> {
    const claimed = await this.#claim(holder, now, leaseMs, 'c.chunk_id = ANY($4)', [chunkIds]);
    const byId = new Map(claimed.map((chunk) => [chunk.chunkId, chunk]));
    return chunkIds.flatMap((id) => byId.get(id) ?? []);
  }

  /**
   * Claims the chunks waiting for a write that meet `condition` (its values from $4) and no holder has a live
   * claim on. SKIP LOCKED lets two replicas' claims pass each other instead of queueing; the conflict clause
   * is what makes a claim exclusive: a live claim of another holder, committed meanwhile, is never overwritten.
   */
  async #claim(
    holder: string,
    now: number,
    leaseMs: number,
    condition: string,
    values: readonly unknown[],
  ): Promise<PlannedChunk[]> {
    const rows = await this.#db.rows<PlannedChunkRow>(
      `WITH due AS (
         SELECT c.chunk_id, c.bot, c.collection, c.attempts, c.revision, c.planned_at FROM chunks c
         LEFT JOIN chunk_claims k ON k.chunk_id = c.chunk_id
         WHERE c.state = 'planned' AND c.needs_delete = 0 AND (k.chunk_id IS NULL OR k.expires_at <= ${NOW(3)})
           AND ${condition}
         FOR UPDATE OF c SKIP LOCKED
       ), claimed AS (
         INSERT INTO chunk_claims (chunk_id, holder, expires_at) SELECT chunk_id, $1, ${NOW(3)} + $2::bigint FROM due
         ON CONFLICT (chunk_id) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
         WHERE chunk_claims.expires_at <= ${NOW(3)}
         RETURNING chunk_id
       )
       SELECT due.chunk_id, bot, collection, attempts, revision FROM due JOIN claimed USING (chunk_id)
       ORDER BY planned_at`,
      [holder, leaseMs, this.#db.expiryNow(now), ...values],
    );
    return rows.map(toPlannedChunk);
  }

  /**
   * One UPDATE, so the check is the database's answer at that moment (never a flag kept here): it waits for a
   * markChunkDeleted that holds the claim row (then finds the claim gone), or makes that one see it live.
   */
  async renewChunkClaims(
    holder: string,
    chunks: readonly ClaimedRevision[],
    now: number,
    leaseMs: number,
  ): Promise<string[]> {
    const rows = await this.#db.rows<{ chunk_id: string; revision: number | null }>(
      `UPDATE chunk_claims k SET expires_at = ${NOW(4)} + $3::bigint
       WHERE k.holder = $1 AND k.chunk_id = ANY($2) AND k.expires_at > ${NOW(4)}
       RETURNING k.chunk_id, (SELECT c.revision FROM chunks c WHERE c.chunk_id = k.chunk_id
         AND c.state = 'planned' AND c.needs_delete = 0) AS revision`,
      [holder, chunks.map((c) => c.chunkId), leaseMs, this.#db.expiryNow(now)],
    );
    return currentAmong(chunks, rows);
  }

  async releaseChunkClaims(holder: string, chunkIds: readonly string[]): Promise<void> {
    await this.#db.run('DELETE FROM chunk_claims WHERE holder = $1 AND chunk_id = ANY($2)', [
      holder,
      chunkIds,
    ]);
  }

  async #select(condition: string, values: readonly unknown[]): Promise<PlannedChunk[]> {
    const rows = await this.#db.rows<PlannedChunkRow>(
      `SELECT ${PLANNED_CHUNK_COLUMNS} FROM chunks WHERE ${condition}`,
      values,
    );
    return rows.map(toPlannedChunk);
  }

  /** The chunks of `chunkIds` meeting `condition`, in the order asked (as the SQLite queue answers). */
  async #inOrder(chunkIds: readonly string[], condition: string): Promise<PlannedChunk[]> {
    const rows = await this.#select(`chunk_id = ANY($1) AND ${condition}`, [chunkIds]);
    const byId = new Map(rows.map((chunk) => [chunk.chunkId, chunk]));
    return chunkIds.flatMap((id) => {
      const chunk = byId.get(id);
      return chunk === undefined ? [] : [chunk];
    });
  }
}
