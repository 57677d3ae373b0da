/**
 * @module Leases and chunk claims in the SQLite journal, in two tables of their own beside the journal's
 * (created at open; the journal's schema and version stay as they are). SQLite has one writer at a time,
 * so an IMMEDIATE transaction is all a claim needs.
 */
import type { Database } from 'better-sqlite3';
import type { PlannedChunk } from '../chunk-queue.js';
import { type PlannedChunkRow, toPlannedChunk } from '../chunk-rows.js';

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

/** Chunk claims (see JournalChunks.claimDueChunks). */
export class SqliteChunkClaims {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  claimDueChunks(holder: string, now: number, limit: number, leaseMs: number): PlannedChunk[] {
    const claim = this.#db.transaction(() => {
      const rows = this.#db
        .prepare(
          `SELECT c.chunk_id, c.bot, c.collection, c.attempts, c.revision FROM chunks c
           LEFT JOIN chunk_claims k ON k.chunk_id = c.chunk_id
           WHERE c.state = 'planned' AND c.needs_delete = 0 AND c.next_attempt_at <= ?
             AND (k.chunk_id IS NULL OR k.expires_at <= ?)
           ORDER BY c.planned_at LIMIT ?`,
        )
        .all(now, now, limit) as PlannedChunkRow[];
      const upsert = this.#db.prepare(
        `INSERT INTO chunk_claims (chunk_id, holder, expires_at) VALUES (?, ?, ?)
         ON CONFLICT (chunk_id) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at`,
      );
      for (const row of rows) upsert.run(row.chunk_id, holder, now + leaseMs);
      return rows.map(toPlannedChunk);
    });
    return claim.immediate();
  }

  releaseChunkClaims(holder: string, chunkIds: readonly string[]): void {
    const remove = this.#db.prepare('DELETE FROM chunk_claims WHERE chunk_id = ? AND holder = ?');
    this.#db.transaction(() => {
      for (const id of chunkIds) remove.run(id, holder);
    })();
  }
}
