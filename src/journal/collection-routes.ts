/**
 * @module Which collection a bot's configured collection is switched to (by `memory-pool reembed`): the
 * service reads and writes the target, so the switch is one journal row and a rollback deletes it.
 */
import type { Database } from 'better-sqlite3';

export interface CollectionRoute {
  /** The bot's configured collection (the name chunk ids are derived from). */
  readonly collection: string;
  /** The collection the service uses instead. */
  readonly target: string;
  readonly switchedAt: number;
}

/** The collection_routes table; every method is one statement or one transaction. */
export class CollectionRoutes {
  constructor(private readonly db: Database) {}

  /** undefined when the collection is not switched. */
  routeOf(collection: string): CollectionRoute | undefined {
    const row = this.db
      .prepare('SELECT collection, target, switched_at FROM collection_routes WHERE collection = ?')
      .get(collection) as { collection: string; target: string; switched_at: number } | undefined;
    return row && { collection: row.collection, target: row.target, switchedAt: row.switched_at };
  }

  /** Where the service reads and writes `collection`'s memories now. */
  activeCollection(collection: string): string {
    return this.routeOf(collection)?.target ?? collection;
  }

  /**
   * Moves `collection`'s chunks from the collection in use to `target` in one transaction: the route and
   * every chunk row's collection change together (`target === collection` switches back).
   */
  switchTo(collection: string, target: string, now: number): void {
    this.db.transaction(() => {
      const from = this.activeCollection(collection);
      this.db.prepare('UPDATE chunks SET collection = ? WHERE collection = ?').run(target, from);
      if (target === collection) {
        this.db.prepare('DELETE FROM collection_routes WHERE collection = ?').run(collection);
      } else {
        this.db
          .prepare(
            `INSERT INTO collection_routes (collection, target, switched_at) VALUES (?, ?, ?)
             ON CONFLICT (collection) DO UPDATE SET target = excluded.target, switched_at = excluded.switched_at`,
          )
          .run(collection, target, now);
      }
    })();
  }
}
