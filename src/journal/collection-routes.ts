/**
 * @module Which collection a bot's configured collection is switched to (by `memory-pool reembed`): the
 * service reads and writes the target instead, so a switch is one journal transaction and so is a rollback.
 */
import type { Database } from 'better-sqlite3';

export interface CollectionRoute {
  /** The bot's configured collection. */
  readonly collection: string;
  /** The collection the service uses instead (the configured one again after a rollback). */
  readonly target: string;
  /** The collection used before the switch; undefined once `--drop-old` deleted it. */
  readonly previous: string | undefined;
  readonly switchedAt: number;
}

interface RouteRow {
  collection: string;
  target: string;
  previous: string | null;
  switched_at: number;
}

/** The collection_routes table; every method is one statement or one transaction. */
export class CollectionRoutes {
  constructor(private readonly db: Database) {}

  /** undefined when the collection was never switched. */
  routeOf(collection: string): CollectionRoute | undefined {
    const row = this.db.prepare('SELECT * FROM collection_routes WHERE collection = ?').get(collection) as
      | RouteRow
      | undefined;
    return (
      row && {
        collection: row.collection,
        target: row.target,
        previous: row.previous ?? undefined,
        switchedAt: row.switched_at,
      }
    );
  }

  /** Where the service reads and writes `collection`'s memories now. */
  activeCollection(collection: string): string {
    return this.routeOf(collection)?.target ?? collection;
  }

  /**
   * Moves `collection`'s memories from the collection in use to `target`: the route and every chunk row's
   * collection change in one transaction, and the collection left becomes `previous`.
   */
  switchTo(collection: string, target: string, now: number): void {
    this.db.transaction(() => {
      const from = this.activeCollection(collection);
      this.db.prepare('UPDATE chunks SET collection = ? WHERE collection = ?').run(target, from);
      this.db
        .prepare(
          `INSERT INTO collection_routes (collection, target, previous, switched_at) VALUES (?, ?, ?, ?)
           ON CONFLICT (collection) DO UPDATE SET target = excluded.target, previous = excluded.previous,
             switched_at = excluded.switched_at`,
        )
        .run(collection, target, from, now);
    })();
  }

  /** After `--drop-old` deleted the previous collection: there is nothing to roll back to. */
  forgetPrevious(collection: string): void {
    this.db.prepare('UPDATE collection_routes SET previous = NULL WHERE collection = ?').run(collection);
  }
}
