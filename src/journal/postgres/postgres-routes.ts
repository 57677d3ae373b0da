/**
 * @module Collection routes, reembeds and parts-index state in Postgres (reembed-routes.ts and
 * parts-index-state.ts in SQLite). Each change NOTIFYs in its own transaction, so other replicas hear of it
 * exactly when it commits.
 */
import type { JournalPartsIndexes, JournalRoutes, JournalTopic } from '../journal.js';
import type { CollectionRoute, ReembedInProgress } from '../reembed-routes.js';
import { JOURNAL_CHANNEL } from './postgres-changes.js';
import type { PgSession } from './postgres-session.js';

/** Runs `work` and a NOTIFY of `topic` in one transaction. */
function changing(
  db: PgSession,
  topic: JournalTopic,
  work: (tx: PgSession) => Promise<unknown>,
): Promise<void> {
  return db.transaction(async (tx) => {
    await work(tx);
    await tx.run('SELECT pg_notify($1, $2)', [JOURNAL_CHANNEL, topic]);
  });
}

export class PostgresRoutes implements JournalRoutes {
  readonly #db: PgSession;

  constructor(db: PgSession) {
    this.#db = db;
  }

  async routeOf(collection: string): Promise<CollectionRoute | undefined> {
    const row = await this.#db.row<{
      collection: string;
      target: string;
      previous: string | null;
      switched_at: number;
    }>('SELECT * FROM collection_routes WHERE collection = $1', [collection]);
    return (
      row && {
        collection: row.collection,
        target: row.target,
        previous: row.previous ?? undefined,
        switchedAt: row.switched_at,
      }
    );
  }

  async activeCollection(collection: string): Promise<string> {
    return (await this.routeOf(collection))?.target ?? collection;
  }

  async resolve(name: string): Promise<string> {
    const row = await this.#db.row<{ target: string }>(
      'SELECT target FROM collection_routes WHERE collection = $1 OR target = $1 OR previous = $1 LIMIT 1',
      [name],
    );
    return row?.target ?? name;
  }

  switchTo(collection: string, target: string, now: number): Promise<void> {
    return changing(this.#db, 'routes', async (tx) => {
      // Locked first, so two switches of one collection run one after the other and read each other's result.
      await tx.run('SELECT pg_advisory_xact_lock(hashtextextended($1, 1))', [collection]);
      const from = await new PostgresRoutes(tx).activeCollection(collection);
      await tx.run('SELECT 1 FROM chunks WHERE collection = $1 ORDER BY chunk_id FOR UPDATE', [from]);
      await tx.run('UPDATE chunks SET collection = $1 WHERE collection = $2', [target, from]);
      await tx.run(
        `INSERT INTO collection_routes (collection, target, previous, switched_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (collection) DO UPDATE SET target = excluded.target, previous = excluded.previous,
           switched_at = excluded.switched_at`,
        [collection, target, from, now],
      );
      await tx.run('DELETE FROM reembeds WHERE collection = $1', [collection]);
    });
  }

  forgetPrevious(collection: string): Promise<void> {
    return changing(this.#db, 'routes', (tx) =>
      tx.run('UPDATE collection_routes SET previous = NULL WHERE collection = $1', [collection]),
    );
  }

  beginReembed(
    collection: string,
    source: string,
    target: string,
    embedding: string,
    now: number,
  ): Promise<void> {
    return changing(this.#db, 'routes', async (tx) => {
      await tx.run(
        `INSERT INTO reembeds (collection, source, target, started_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (collection) DO UPDATE SET source = excluded.source, target = excluded.target,
           started_at = CASE WHEN reembeds.target = excluded.target THEN reembeds.started_at ELSE excluded.started_at END`,
        [collection, source, target, now],
      );
      await tx.run(
        `INSERT INTO collection_embeddings (collection, embedding, recorded_at) VALUES ($1, $2, $3)
         ON CONFLICT (collection) DO UPDATE SET embedding = excluded.embedding, recorded_at = excluded.recorded_at`,
        [target, embedding, now],
      );
    });
  }

  async isReembedTarget(name: string): Promise<boolean> {
    return (await this.#db.row('SELECT 1 FROM reembeds WHERE target = $1', [name])) !== undefined;
  }

  async reembedOf(collection: string): Promise<ReembedInProgress | undefined> {
    const row = await this.#db.row<{
      collection: string;
      source: string;
      target: string;
      started_at: number;
    }>('SELECT * FROM reembeds WHERE collection = $1', [collection]);
    return (
      row && { collection: row.collection, source: row.source, target: row.target, startedAt: row.started_at }
    );
  }

  async followerOf(written: string): Promise<string | undefined> {
    const reembed = await this.#db.row<{ target: string }>(
      'SELECT target FROM reembeds WHERE source = $1 LIMIT 1',
      [written],
    );
    if (reembed !== undefined) return reembed.target;
    const current = await this.resolve(written);
    return current === written ? undefined : current;
  }

  async embeddingOf(collection: string): Promise<string | undefined> {
    const row = await this.#db.row<{ embedding: string }>(
      'SELECT embedding FROM collection_embeddings WHERE collection = $1',
      [collection],
    );
    return row?.embedding;
  }
}

export class PostgresPartsIndexes implements JournalPartsIndexes {
  readonly #db: PgSession;

  constructor(db: PgSession) {
    this.#db = db;
  }

  recordStarted(collection: string, complete: boolean, now: number): Promise<void> {
    return changing(this.#db, 'parts-indexes', (tx) =>
      tx.run(
        'INSERT INTO parts_indexes (collection, complete, updated_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
        [collection, complete ? 1 : 0, now],
      ),
    );
  }

  markComplete(collection: string, now: number): Promise<void> {
    return this.#setComplete(collection, true, now);
  }

  markIncomplete(collection: string, now: number): Promise<void> {
    return this.#setComplete(collection, false, now);
  }

  #setComplete(collection: string, complete: boolean, now: number): Promise<void> {
    return changing(this.#db, 'parts-indexes', (tx) =>
      tx.run(
        `INSERT INTO parts_indexes (collection, complete, updated_at) VALUES ($1, $2, $3)
         ON CONFLICT (collection) DO UPDATE SET complete = excluded.complete, updated_at = excluded.updated_at`,
        [collection, complete ? 1 : 0, now],
      ),
    );
  }

  forget(collection: string): Promise<void> {
    return changing(this.#db, 'parts-indexes', (tx) =>
      tx.run('DELETE FROM parts_indexes WHERE collection = $1', [collection]),
    );
  }

  async isComplete(collection: string): Promise<boolean | undefined> {
    const row = await this.#db.row<{ complete: number }>(
      'SELECT complete FROM parts_indexes WHERE collection = $1',
      [collection],
    );
    return row === undefined ? undefined : row.complete === 1;
  }
}
