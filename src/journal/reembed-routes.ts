/**
 * @module Which collection a bot's configured collection is switched to (by `memory-pool reembed`), and the
 * reembed building the next one: the service reads and writes the target instead, so a switch is one journal
 * transaction and so is a rollback; while a reembed runs, what the service stores reaches both collections.
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

/** A reembed in progress: `target` is being built from `source`, the collection in use. */
export interface ReembedInProgress {
  readonly collection: string;
  readonly source: string;
  readonly target: string;
  readonly startedAt: number;
}

interface RouteRow {
  collection: string;
  target: string;
  previous: string | null;
  switched_at: number;
}

/** The collection_routes, reembeds and collection_embeddings tables; each method is one statement or transaction. */
export class CollectionRoutes {
  readonly #db: Database;
  /** Prepared once: resolve runs for every /retrieve and each planned chunk, and preparing cost more than the query. */
  readonly #selectTarget;
  readonly #selectReembedTarget;
  readonly #selectEmbedding;

  constructor(db: Database) {
    this.#db = db;
    this.#selectTarget = db.prepare(
      'SELECT target FROM collection_routes WHERE collection = ? OR target = ? OR previous = ? LIMIT 1',
    );
    this.#selectReembedTarget = db.prepare('SELECT target FROM reembeds WHERE source = ?');
    this.#selectEmbedding = db.prepare('SELECT embedding FROM collection_embeddings WHERE collection = ?');
  }

  /** undefined when the collection was never switched. */
  routeOf(collection: string): CollectionRoute | undefined {
    const row = this.#db.prepare('SELECT * FROM collection_routes WHERE collection = ?').get(collection) as
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
   * Where memories addressed to `name` belong now: `name` may be the configured collection, or one it was
   * switched to or away from (a service started before a later switch still holds that name).
   */
  resolve(name: string): string {
    const row = this.#selectTarget.get(name, name, name) as { target: string } | undefined;
    return row?.target ?? name;
  }

  /**
   * Moves `collection`'s memories from the collection in use to `target`: the route and every chunk row's
   * collection change in one transaction, the collection left becomes `previous`, and a reembed that built
   * `target` ends.
   */
  switchTo(collection: string, target: string, now: number): void {
    this.#db
      .transaction(() => {
        const from = this.activeCollection(collection);
        this.#db.prepare('UPDATE chunks SET collection = ? WHERE collection = ?').run(target, from);
        this.#db
          .prepare(
            `INSERT INTO collection_routes (collection, target, previous, switched_at) VALUES (?, ?, ?, ?)
           ON CONFLICT (collection) DO UPDATE SET target = excluded.target, previous = excluded.previous,
             switched_at = excluded.switched_at`,
          )
          .run(collection, target, from, now);
        this.#db.prepare('DELETE FROM reembeds WHERE collection = ?').run(collection);
      })
      .immediate();
  }

  /** After `--drop-old` deleted the previous collection: there is nothing to roll back to. */
  forgetPrevious(collection: string): void {
    this.#db.prepare('UPDATE collection_routes SET previous = NULL WHERE collection = ?').run(collection);
  }

  /**
   * Records that `target` is being built from `source` with `embedding` (the section as written, `${VAR}`
   * unexpanded): from the commit on, the service writes what it stores in `source` to `target` as well.
   */
  beginReembed(collection: string, source: string, target: string, embedding: string, now: number): void {
    this.#db
      .transaction(() => {
        this.#db
          .prepare(
            `INSERT INTO reembeds (collection, source, target, started_at) VALUES (?, ?, ?, ?)
           ON CONFLICT (collection) DO UPDATE SET source = excluded.source, target = excluded.target,
             started_at = CASE WHEN reembeds.target = excluded.target THEN reembeds.started_at ELSE excluded.started_at END`,
          )
          .run(collection, source, target, now);
        this.#db
          .prepare(
            `INSERT INTO collection_embeddings (collection, embedding, recorded_at) VALUES (?, ?, ?)
           ON CONFLICT (collection) DO UPDATE SET embedding = excluded.embedding, recorded_at = excluded.recorded_at`,
          )
          .run(target, embedding, now);
      })
      .immediate();
  }

  reembedOf(collection: string): ReembedInProgress | undefined {
    const row = this.#db.prepare('SELECT * FROM reembeds WHERE collection = ?').get(collection) as
      | { collection: string; source: string; target: string; started_at: number }
      | undefined;
    return (
      row && { collection: row.collection, source: row.source, target: row.target, startedAt: row.started_at }
    );
  }

  /** True while a reembed builds `name`: it may not exist yet, and its parts are reindex's, not leftovers. */
  isReembedTarget(name: string): boolean {
    return this.#db.prepare('SELECT 1 FROM reembeds WHERE target = ?').get(name) !== undefined;
  }

  /**
   * The collection a chunk just stored in `written` must also reach: the target of a reembed building from
   * it, or, after a switch away from it, the collection switched to (a write that began before the switch).
   * Asked after the write, so a write finished before a reembed began is one its passes copy.
   */
  followerOf(written: string): string | undefined {
    const reembed = this.#selectReembedTarget.get(written) as { target: string } | undefined;
    if (reembed !== undefined) return reembed.target;
    const current = this.resolve(written);
    return current === written ? undefined : current;
  }

  /** The `embedding:` section (JSON, `${VAR}` unexpanded) a reembed built `collection` with, if any. */
  embeddingOf(collection: string): string | undefined {
    const row = this.#selectEmbedding.get(collection) as { embedding: string } | undefined;
    return row?.embedding;
  }
}
