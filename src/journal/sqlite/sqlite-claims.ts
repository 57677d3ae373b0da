/**
 * @module Leases and chunk claims in the SQLite journal, in two tables of their own beside the journal's
 * (created at open; the journal's schema and version stay as they are). SQLite has one writer at a time,
 * so an IMMEDIATE transaction is all a claim needs.
 */
import type { Database } from 'better-sqlite3';
import type { ChunkQueue, PlannedChunk } from '../chunk-queue.js';
import { currentAmong, PLANNED_CHUNK_COLUMNS, type PlannedChunkRow, toPlannedChunk } from '../chunk-rows.js';
import type { ClaimedRevision } from '../journal.js';

const CLAIM_TABLES = [
  `CREATE TABLE IF NOT EXISTS journal_leases (
     name TEXT PRIMARY KEY, holder TEXT NOT NULL, expires_at INTEGER NOT NULL
   ) WITHOUT ROWID`,
  `CREATE TABLE IF NOT EXISTS chunk_claims (
     chunk_id TEXT PRIMARY KEY, holder TEXT NOT NULL, expires_at INTEGER NOT NULL
   ) WITHOUT ROWID`,
];

/** Creates the lease and claim tables if needed. */
export function applyClaimTables(db: Database): void {
  db.transaction(() => {
    for (const sql of CLAIM_TABLES) db.exec(sql);
  }).immediate();
}

/** Named leases (see JournalLeases). */
export class SqliteLeases {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  acquire(name: string, holder: string, ttlMs: number, now: number): boolean {
    const result = this.#db
      .prepare(
        `INSERT INTO journal_leases (name, holder, expires_at) VALUES (?, ?, ?)
         ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
         WHERE journal_leases.holder = excluded.holder OR journal_leases.expires_at <= ?`,
      )
      .run(name, holder, now + ttlMs, now);
    return result.changes === 1;
  }

  release(name: string, holder: string): void {
    this.#db.prepare('DELETE FROM journal_leases WHERE name = ? AND holder = ?').run(name, holder);
  }

  holderOf(name: string, now: number): string | undefined {
    const row = this.#db
      .prepare('SELECT holder FROM journal_leases WHERE name = ? AND expires_at > ?')
      .get(name, now) as { holder: string } | undefined;
    return row?.holder;
  }
}

/**
 * Chunk claims (see JournalChunks.claimDueChunks), and the queue methods a claim changes: a delete waits for a
 * live write claim, and a refused write is re-queued (the port's dueDeletions, markChunkDeleted,
 * markChunkStored and requeueStaleWrite; MessageJournal's own queue keeps its behaviour).
 */
export class SqliteChunkClaims {
  readonly #db: Database;
  readonly #queue: ChunkQueue;

  constructor(db: Database, queue: ChunkQueue) {
    this.#db = db;
    this.#queue = queue;
  }

  dueDeletions(now: number, limit: number): PlannedChunk[] {
    const rows = this.#db
      .prepare(
        `SELECT ${PLANNED_CHUNK_COLUMNS} FROM chunks WHERE needs_delete = 1 AND next_attempt_at <= ?
           AND NOT EXISTS (SELECT 1 FROM chunk_claims k WHERE k.chunk_id = chunks.chunk_id AND k.expires_at > ?)
         ORDER BY planned_at LIMIT ?`,
      )
      .all(now, now, limit) as PlannedChunkRow[];
    return rows.map(toPlannedChunk);
  }

  hasUnclaimedDeletions(bot: string, now: number): boolean {
    const row = this.#db
      .prepare(
        `SELECT 1 FROM chunks WHERE bot = ? AND needs_delete = 1
           AND NOT EXISTS (SELECT 1 FROM chunk_claims k WHERE k.chunk_id = chunks.chunk_id AND k.expires_at > ?)
         LIMIT 1`,
      )
      .get(bot, now);
    return row !== undefined;
  }

  /** Drops every chunk claim: serve on SQLite is the journal's one writer, so any claim left is a dead process's. */
  dropAllClaims(): number {
    return this.#db.prepare('DELETE FROM chunk_claims').run().changes;
  }

  markChunkStored(chunkId: string, revision: number, now: number): boolean {
    const result = this.#db
      .prepare(
        `UPDATE chunks SET state = 'stored', stored_at = ?, last_error = NULL, attempts = 0
         WHERE chunk_id = ? AND revision = ? AND needs_delete = 0`,
      )
      .run(now, chunkId, revision);
    return result.changes === 1;
  }

  requeueStaleWrite(
    chunk: { chunkId: string; bot: string; collection: string; revision: number },
    now: number,
  ): void {
    this.#db
      .transaction(() => {
        const row = this.#db
          .prepare('SELECT state, needs_delete FROM chunks WHERE chunk_id = ?')
          .get(chunk.chunkId) as { state: string; needs_delete: number } | undefined;
        if (row === undefined) {
          this.#db
            .prepare(
              `INSERT INTO chunks (chunk_id, bot, collection, state, revision, needs_delete, planned_at)
             VALUES (?, ?, ?, 'stored', ?, 1, ?)`,
            )
            .run(chunk.chunkId, chunk.bot, chunk.collection, chunk.revision + 1, now);
        } else if (row.state === 'stored' && row.needs_delete === 0) {
          this.#db
            .prepare("UPDATE chunks SET state = 'planned', next_attempt_at = 0 WHERE chunk_id = ?")
            .run(chunk.chunkId);
        }
      })
      .immediate();
  }

  markChunkDeleted(chunkId: string, revision: number, now: number): void {
    this.#db
      .transaction(() => {
        this.#db.prepare('DELETE FROM chunk_claims WHERE chunk_id = ? AND expires_at <= ?').run(chunkId, now);
        if (this.#db.prepare('SELECT 1 FROM chunk_claims WHERE chunk_id = ?').get(chunkId) !== undefined)
          return;
        this.#queue.markChunkDeleted(chunkId, revision);
      })
      .immediate();
  }

  claimDueChunks(holder: string, now: number, limit: number, leaseMs: number): PlannedChunk[] {
    return this.#claim(holder, now, leaseMs, 'c.next_attempt_at <= ? ORDER BY c.planned_at LIMIT ?', [
      now,
      limit,
    ]);
  }

  claimChunks(holder: string, chunkIds: readonly string[], now: number, leaseMs: number): PlannedChunk[] {
    const claimed = this.#claim(holder, now, leaseMs, 'c.chunk_id IN (SELECT value FROM json_each(?))', [
      JSON.stringify(chunkIds),
    ]);
    const byId = new Map(claimed.map((chunk) => [chunk.chunkId, chunk]));
    return chunkIds.flatMap((id) => byId.get(id) ?? []);
  }

  /** Claims the chunks waiting for a write that meet `condition` (bound to `values`) and no holder has a live claim on. */
  #claim(
    holder: string,
    now: number,
    leaseMs: number,
    condition: string,
    values: readonly unknown[],
  ): PlannedChunk[] {
    const claim = this.#db.transaction(() => {
      const rows = this.#db
        .prepare(
          `SELECT c.chunk_id, c.bot, c.collection, c.attempts, c.revision FROM chunks c
           LEFT JOIN chunk_claims k ON k.chunk_id = c.chunk_id
           WHERE c.state = 'planned' AND c.needs_delete = 0 AND (k.chunk_id IS NULL OR k.expires_at <= ?)
             AND ${condition}`,
        )
        .all(now, ...values) as PlannedChunkRow[];
      const upsert = this.#db.prepare(
        `INSERT INTO chunk_claims (chunk_id, holder, expires_at) VALUES (?, ?, ?)
         ON CONFLICT (chunk_id) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at`,
      );
      for (const row of rows) upsert.run(row.chunk_id, holder, now + leaseMs);
      return rows.map(toPlannedChunk);
    });
    return claim.immediate();
  }

  renewChunkClaims(
    holder: string,
    chunks: readonly ClaimedRevision[],
    now: number,
    leaseMs: number,
  ): string[] {
    const rows = this.#db
      .prepare(
        `UPDATE chunk_claims SET expires_at = ?
         WHERE holder = ? AND expires_at > ? AND chunk_id IN (SELECT value FROM json_each(?))
         RETURNING chunk_id, (SELECT c.revision FROM chunks c WHERE c.chunk_id = chunk_claims.chunk_id
           AND c.state = 'planned' AND c.needs_delete = 0) AS revision`,
      )
      .all(now + leaseMs, holder, now, JSON.stringify(chunks.map((c) => c.chunkId))) as {
      chunk_id: string;
      revision: number | null;
    }[];
    return currentAmong(chunks, rows);
  }

  releaseChunkClaims(holder: string, chunkIds: readonly string[]): void {
    const remove = this.#db.prepare('DELETE FROM chunk_claims WHERE chunk_id = ? AND holder = ?');
    this.#db.transaction(() => {
      for (const id of chunkIds) remove.run(id, holder);
    })();
  }
}
