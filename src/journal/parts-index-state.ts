/**
 * @module Which parts indexes are complete: every chunk memory-pool stored in the collection has its parts.
 * Recall uses a collection's parts only then; until a reindex, an index started beside existing chunks is
 * incomplete and recall stays chunk-only.
 */
import type { Database } from 'better-sqlite3';

/** The parts_indexes table; every method is one statement. */
export class PartsIndexState {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  /** Records an index before its parts collection is created: complete when no chunk was there before it. */
  recordStarted(collection: string, complete: boolean, now: number): void {
    this.#db
      .prepare(
        'INSERT INTO parts_indexes (collection, complete, updated_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
      )
      .run(collection, complete ? 1 : 0, now);
  }

  /** After a reindex built the parts of every chunk that was there. */
  markComplete(collection: string, now: number): void {
    this.#setComplete(collection, true, now);
  }

  /**
   * Before a reembed builds `collection`'s parts: incomplete until its parts pass marks it complete, even if
   * serve's first follower write creates the parts collection while the chunks are still being copied.
   */
  markIncomplete(collection: string, now: number): void {
    this.#setComplete(collection, false, now);
  }

  /** After `collection` and its parts were deleted: a collection created later under the name starts afresh. */
  forget(collection: string): void {
    this.#db.prepare('DELETE FROM parts_indexes WHERE collection = ?').run(collection);
  }

  /** undefined when no parts index was started for `collection` (by this journal). */
  isComplete(collection: string): boolean | undefined {
    const row = this.#db.prepare('SELECT complete FROM parts_indexes WHERE collection = ?').get(collection) as
      | { complete: number }
      | undefined;
    return row === undefined ? undefined : row.complete === 1;
  }

  #setComplete(collection: string, complete: boolean, now: number): void {
    this.#db
      .prepare(
        `INSERT INTO parts_indexes (collection, complete, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (collection) DO UPDATE SET complete = excluded.complete, updated_at = excluded.updated_at`,
      )
      .run(collection, complete ? 1 : 0, now);
  }
}
