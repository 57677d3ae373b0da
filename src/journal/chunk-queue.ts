/**
 * @module The journal's chunk queue: chunks planned from messages, waiting for their write (or, after a
 * forget, for the delete of their stored point), with attempts, backoff and the revision that tells a
 * current write from one that raced with an edit or forget.
 */
import type { Database } from 'better-sqlite3';
import {
  PLANNED_CHUNK_COLUMNS as CHUNK_COLUMNS,
  type PlannedChunkRow as ChunkRow,
  toPlannedChunk,
} from './chunk-rows.js';
import { type JournalMessage, type MessageRow, toMessage } from './message-rows.js';

/** A chunk whose messages are fixed but whose store write (or delete, after a forget) is not done yet. */
export interface PlannedChunk {
  readonly chunkId: string;
  readonly bot: string;
  readonly collection: string;
  readonly attempts: number;
  /** Changes with every edit or forget touching the chunk: a write of an older revision is not current. */
  readonly revision: number;
}

/**
 * Chunk rows of the journal; every method is one transaction. The statements a writer pass runs once per
 * chunk are prepared once: preparing them on every call cost more than the planning itself.
 */
export class ChunkQueue {
  readonly #selectChunkMessages;
  readonly #insertChunk;
  readonly #assignMessage;
  readonly #updateStored;
  readonly #updateFailed;

  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
    this.#selectChunkMessages = db.prepare(
      'SELECT * FROM messages WHERE chunk_id = ? ORDER BY ts, arrived_at, message_id',
    );
    this.#insertChunk = db.prepare(
      `INSERT INTO chunks (chunk_id, bot, collection, state, planned_at)
       VALUES (?, ?, ?, 'planned', ?) ON CONFLICT (chunk_id) DO UPDATE SET state = 'planned', next_attempt_at = 0`,
    );
    this.#assignMessage = db.prepare(
      'UPDATE messages SET chunk_id = ? WHERE bot = ? AND source = ? AND message_id = ?',
    );
    this.#updateStored = db.prepare(
      `UPDATE chunks SET state = 'stored', stored_at = ?, last_error = NULL, attempts = 0
       WHERE chunk_id = ? AND revision = ? AND needs_delete = 0`,
    );
    this.#updateFailed = db.prepare(
      'UPDATE chunks SET attempts = attempts + 1, last_error = ?, next_attempt_at = ? WHERE chunk_id = ? AND revision = ?',
    );
  }

  /** Fixes a chunk's messages: from now on they belong to `chunkId`, whatever happens to the write. */
  planChunk(
    chunk: {
      chunkId: string;
      bot: string;
      collection: string;
      source: string;
      messageIds: readonly string[];
    },
    now: number,
  ): void {
    const plan = this.#db.transaction(() => {
      this.#insertChunk.run(chunk.chunkId, chunk.bot, chunk.collection, now);
      for (const id of chunk.messageIds) this.#assignMessage.run(chunk.chunkId, chunk.bot, chunk.source, id);
    });
    plan.immediate();
  }

  /** Planned chunks whose next write is due, oldest first (not those waiting for a delete: dueDeletions). */
  dueChunks(now: number, limit: number): PlannedChunk[] {
    return this.#selectDue("state = 'planned' AND needs_delete = 0", now, limit);
  }

  /** Those of `chunkIds` that wait for a write (not for a delete). */
  plannedChunks(chunkIds: readonly string[]): PlannedChunk[] {
    const select = this.#db.prepare(
      `SELECT ${CHUNK_COLUMNS} FROM chunks WHERE chunk_id = ? AND state = 'planned' AND needs_delete = 0`,
    );
    return chunkIds.flatMap((id) => {
      const row = select.get(id) as ChunkRow | undefined;
      return row ? [toPlannedChunk(row)] : [];
    });
  }

  /** The chunks of `bot` whose point is stored and current (not waiting for a rewrite or a forget's delete). */
  storedChunks(bot: string): PlannedChunk[] {
    return this.#selectChunks("bot = ? AND state = 'stored' AND needs_delete = 0 ORDER BY planned_at", bot);
  }

  /** Those of `chunkIds` that are still stored and current, with their revision now. */
  storedAmong(chunkIds: readonly string[]): PlannedChunk[] {
    return chunkIds.flatMap((id) =>
      this.#selectChunks("chunk_id = ? AND state = 'stored' AND needs_delete = 0", id),
    );
  }

  /** Whether the journal still has this chunk (stored, waiting for a write, or for a delete). */
  hasChunk(chunkId: string): boolean {
    return this.#db.prepare('SELECT 1 FROM chunks WHERE chunk_id = ?').get(chunkId) !== undefined;
  }

  #selectChunks(condition: string, value: string): PlannedChunk[] {
    const rows = this.#db
      .prepare(`SELECT ${CHUNK_COLUMNS} FROM chunks WHERE ${condition}`)
      .all(value) as ChunkRow[];
    return rows.map(toPlannedChunk);
  }

  /** Chunks whose stored point must be deleted first (after a forget), due now. */
  dueDeletions(now: number, limit: number): PlannedChunk[] {
    return this.#selectDue('needs_delete = 1', now, limit);
  }

  #selectDue(condition: string, now: number, limit: number): PlannedChunk[] {
    const rows = this.#db
      .prepare(
        `SELECT ${CHUNK_COLUMNS} FROM chunks
         WHERE ${condition} AND next_attempt_at <= ? ORDER BY planned_at LIMIT ?`,
      )
      .all(now, limit) as ChunkRow[];
    return rows.map(toPlannedChunk);
  }

  /** Makes every delete still waiting for `bot` due now (a new forget tries them all, whatever their backoff). */
  makeDeletionsDue(bot: string): void {
    this.#db.prepare('UPDATE chunks SET next_attempt_at = 0 WHERE bot = ? AND needs_delete = 1').run(bot);
  }

  /** Whether a forget's point deletions for `bot` are still waiting (the store could not be reached). */
  hasPendingDeletions(bot: string): boolean {
    return (
      this.#db.prepare('SELECT 1 FROM chunks WHERE bot = ? AND needs_delete = 1 LIMIT 1').get(bot) !==
      undefined
    );
  }

  /** When the earliest waiting chunk is due, or undefined when none is waiting. */
  nextChunkDueAt(): number | undefined {
    const row = this.#db
      .prepare("SELECT MIN(next_attempt_at) AS due FROM chunks WHERE state = 'planned' OR needs_delete = 1")
      .get() as { due: number | null };
    return row.due ?? undefined;
  }

  chunkMessages(chunkId: string): JournalMessage[] {
    return (this.#selectChunkMessages.all(chunkId) as MessageRow[]).map(toMessage);
  }

  /** Makes these chunks due now, if they still wait for a write or a delete (the outage they waited out ended). */
  makeChunksDue(chunkIds: readonly string[]): void {
    const update = this.#db.prepare(
      "UPDATE chunks SET next_attempt_at = 0 WHERE chunk_id = ? AND (state = 'planned' OR needs_delete = 1)",
    );
    this.#db.transaction(() => {
      for (const id of chunkIds) update.run(id);
    })();
  }

  /** Makes every planned chunk due now (at start-up, when the config may have been fixed). */
  resetRetryDelays(): void {
    this.#db
      .prepare("UPDATE chunks SET next_attempt_at = 0 WHERE state = 'planned' OR needs_delete = 1")
      .run();
  }

  /** Marks a write done, unless an edit or forget changed the chunk meanwhile (then it is written again). */
  markChunkStored(chunkId: string, revision: number, now: number): void {
    this.#updateStored.run(now, chunkId, revision);
  }

  /** After the point was deleted: a chunk with messages left is written again; an empty one is dropped. */
  markChunkDeleted(chunkId: string, revision: number): void {
    const settle = this.#db.transaction(() => {
      const left = this.#db.prepare('SELECT COUNT(*) AS n FROM messages WHERE chunk_id = ?').get(chunkId) as {
        n: number;
      };
      if (left.n === 0) {
        this.#db.prepare('DELETE FROM chunks WHERE chunk_id = ? AND revision = ?').run(chunkId, revision);
      } else {
        this.#db
          .prepare(
            `UPDATE chunks SET needs_delete = 0, state = 'planned', next_attempt_at = 0, attempts = 0, stored_at = NULL
             WHERE chunk_id = ? AND revision = ?`,
          )
          .run(chunkId, revision);
      }
    });
    settle.immediate();
  }

  /** Records a failed attempt, unless the chunk changed since (then its new state is due as it is). */
  markChunkFailed(chunkId: string, revision: number, error: string, nextAttemptAt: number): void {
    this.#updateFailed.run(error, nextAttemptAt, chunkId, revision);
  }
}
