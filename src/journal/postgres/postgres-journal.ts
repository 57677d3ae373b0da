/**
 * @module The Journal port over Postgres, for several replicas sharing one journal: a pooled node-postgres
 * client, the schema migrated at open, and the same answers as the SQLite journal (the contract suite runs
 * on both). Every method is one transaction; a transaction's journal runs on the one client holding it.
 */
import pg from 'pg';
import type { MemoryMessage } from '../../chunking/memory-message.js';
import type { BotCounts, Journal, JournalChanges } from '../journal.js';
import type { PendingConversation, RecordResult } from '../message-journal.js';
import type { JournalMessage, MessageRow } from '../message-rows.js';
import { toConnectError } from './check-postgres-journal.js';
import { PostgresChanges } from './postgres-changes.js';
import { PostgresChunks } from './postgres-chunks.js';
import { type ServingLock, takeServingLock } from './postgres-copy-lock.js';
import { PostgresDiscord } from './postgres-discord.js';
import { PostgresForgetting } from './postgres-forgetting.js';
import { PostgresLeases } from './postgres-leases.js';
import { recordPostgresMessages } from './postgres-messages.js';
import { PostgresPeople } from './postgres-people.js';
import { PostgresRenames } from './postgres-renames.js';
import { PostgresPartsIndexes, PostgresRoutes } from './postgres-routes.js';
import { ensurePersonaIndex } from './postgres-persona-index.js';
import { applyPostgresSchema } from './postgres-schema.js';
import { PgSession } from './postgres-session.js';
import { PostgresSnapshots } from './postgres-snapshots.js';
import { decodeText, encodeText, toDecodedMessage } from './postgres-text.js';

/** BIGINT (oid 20) as a JS number: the journal's ms timestamps and counts are far below 2^53. */
export const TYPES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === 20 ? Number : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

export interface PostgresJournalOptions {
  /** Default 10: connections this replica keeps to the server. */
  readonly maxConnections?: number;
  /** Default 3: reruns of a transaction Postgres aborted in a deadlock or serialization failure. */
  readonly conflictRetries?: number;
  /**
   * Default false: lease and claim expiry use the server's clock, so replicas whose clocks disagree still
   * agree on who holds what. True makes them use the `now` each call passes (the contract suite's fake times).
   */
  readonly callerClock?: boolean;
  /** Default 30 000: the server ends a transaction this replica leaves idle longer (its locks with it). */
  readonly idleInTransactionTimeoutMs?: number;
}

/**
 * Connects, migrates (once, however many replicas start at the same moment) and returns the journal; a
 * server it cannot reach or a journal it cannot open is a ConfigError naming journal.postgres.url.
 */
export async function openPostgresJournal(
  url: string,
  options: PostgresJournalOptions = {},
): Promise<Journal> {
  const config: pg.ClientConfig = {
    connectionString: url,
    types: TYPES,
    application_name: 'memory-pool',
    connectionTimeoutMillis: 5000,
    // A frozen or partitioned replica must not hold its locks for ever: the server ends a transaction left
    // idle, a statement running or a lock waited for too long, and TCP keep-alives find a dead peer.
    keepAlive: true,
    idle_in_transaction_session_timeout: options.idleInTransactionTimeoutMs ?? 30_000,
    lock_timeout: 15_000,
    statement_timeout: 60_000,
  };
  // Held for as long as this journal is open: a `journal copy` into this database refuses to start meanwhile,
  // and this open refuses while one runs (the copy would delete what this process saves).
  let serving: ServingLock;
  try {
    serving = await takeServingLock(url);
  } catch (error) {
    throw toConnectError(error, url);
  }
  const pool = new pg.Pool({ ...config, max: options.maxConnections ?? 10 });
  // An idle client losing its server is reported by the next query; unhandled, it would end the process.
  pool.on('error', () => undefined);
  try {
    await applyPostgresSchema(new PgSession(pool, url));
    await ensurePersonaIndex(pool);
    await serving.startHeartbeat(pool);
  } catch (error) {
    await pool.end();
    await serving.close();
    throw toConnectError(error, url);
  }
  const changes = new PostgresChanges(config);
  return new PostgresJournal(
    new PgSession(pool, url, {
      retries: options.conflictRetries ?? 3,
      serverClock: options.callerClock !== true,
    }),
    changes,
    async () => {
      await changes.close();
      await serving.close(); // ends its heartbeat on the pool, so before it
      await pool.end();
    },
  );
}

class PostgresJournal implements Journal {
  readonly chunks;
  readonly forgetting;
  readonly partsIndexes;
  readonly routes;
  readonly snapshots;
  readonly leases;
  readonly changes: JournalChanges;
  readonly discord;
  readonly people;
  readonly renames;

  readonly #db: PgSession;
  readonly #close: () => Promise<void>;

  /** `close` ends what this journal owns: the pool and the listening connection (nothing, in a transaction). */
  constructor(db: PgSession, changes: JournalChanges, close: () => Promise<void>) {
    this.#db = db;
    this.#close = close;
    this.chunks = new PostgresChunks(db);
    this.forgetting = new PostgresForgetting(db);
    this.partsIndexes = new PostgresPartsIndexes(db);
    this.routes = new PostgresRoutes(db);
    this.snapshots = new PostgresSnapshots(db);
    this.leases = new PostgresLeases(db);
    this.discord = new PostgresDiscord(db);
    this.people = new PostgresPeople(db);
    this.renames = new PostgresRenames(db);
    this.changes = changes;
  }

  recordMessages(messages: readonly MemoryMessage[], arrivedAt: number): Promise<RecordResult> {
    return recordPostgresMessages(this.#db, messages, arrivedAt);
  }

  transaction<T>(work: (journal: Journal) => Promise<T>): Promise<T> {
    return this.#db.transaction((tx) => work(new PostgresJournal(tx, this.changes, () => Promise.resolve())));
  }

  /** A commit returns once Postgres made it durable (synchronous_commit), so there is nothing left to flush. */
  flush(): Promise<void> {
    return Promise.resolve();
  }

  /**
   * Asks the server every time: an idle replica learns it lost Postgres from its /ready, not its next save.
   * Reachable is not enough: a standby (after a failover the URL may name one) or a read-only database answers
   * reads and refuses every save.
   */
  checkWritable(): Promise<void> {
    return this.#db.checkWritable();
  }

  probeWritable(): Promise<void> {
    return this.#db.transaction(async (tx) => {
      await tx.run("INSERT INTO journal_probe (filler) VALUES ('\\x00'::bytea)");
      await tx.run('DELETE FROM journal_probe');
    });
  }

  async pendingConversations(): Promise<PendingConversation[]> {
    const rows = await this.#db.rows<{ bot: string; conversation: string; last: number }>(
      `SELECT bot, conversation, MAX(arrived_at) AS last FROM messages WHERE chunk_id IS NULL
       GROUP BY bot, conversation`,
    );
    return rows.map((r) => ({ bot: r.bot, conversation: decodeText(r.conversation), lastArrivalMs: r.last }));
  }

  async pendingMessages(bot: string, conversation: string): Promise<JournalMessage[]> {
    const rows = await this.#db.rows<MessageRow>(
      `SELECT * FROM messages WHERE bot = $1 AND conversation = $2 AND chunk_id IS NULL
       ORDER BY ts, arrived_at, message_id`,
      [bot, encodeText(conversation)],
    );
    return rows.map(toDecodedMessage);
  }

  async unstoredInConversation(bot: string, conversation: string): Promise<number> {
    const row = await this.#db.row<{ n: number }>(
      `SELECT COUNT(*) AS n FROM messages m LEFT JOIN chunks c ON c.chunk_id = m.chunk_id
       WHERE m.bot = $1 AND m.conversation = $2 AND (m.chunk_id IS NULL OR c.state = 'planned' OR c.needs_delete = 1)`,
      [bot, encodeText(conversation)],
    );
    return row?.n ?? 0;
  }

  async queueDepth(): Promise<{ pendingMessages: number; plannedChunks: number; storedChunks: number }> {
    const row = await this.#db.row<{ pending: number; planned: number; stored: number }>(
      `SELECT (SELECT COUNT(*) FROM messages WHERE chunk_id IS NULL) AS pending,
              COUNT(*) FILTER (WHERE state = 'planned' OR needs_delete = 1) AS planned,
              COUNT(*) FILTER (WHERE state = 'stored' AND needs_delete = 0) AS stored FROM chunks`,
    );
    return {
      pendingMessages: row?.pending ?? 0,
      plannedChunks: row?.planned ?? 0,
      storedChunks: row?.stored ?? 0,
    };
  }

  async botCounts(bot: string): Promise<BotCounts> {
    const sources = await this.#db.rows<{ source: string; n: number }>(
      'SELECT source, COUNT(*) AS n FROM messages WHERE bot = $1 GROUP BY source ORDER BY source',
      [bot],
    );
    const row = await this.#db.row<{
      pending: number;
      oldest: number | null;
      forgotten: number;
      planned: number;
      stored: number;
    }>(
      `SELECT p.n AS pending, p.oldest, (SELECT COUNT(*) FROM forgotten_messages WHERE bot = $1) AS forgotten,
              c.planned, c.stored
       FROM (SELECT COUNT(*) AS n, MIN(m.arrived_at) AS oldest FROM messages m LEFT JOIN chunks c ON c.chunk_id = m.chunk_id
             WHERE m.bot = $1 AND (m.chunk_id IS NULL OR c.state = 'planned' OR c.needs_delete = 1)) AS p,
            (SELECT COUNT(*) FILTER (WHERE state = 'planned' OR needs_delete = 1) AS planned,
                    COUNT(*) FILTER (WHERE state = 'stored' AND needs_delete = 0) AS stored
             FROM chunks WHERE bot = $1) AS c`,
      [bot],
    );
    return {
      bySource: Object.fromEntries(sources.map((r) => [r.source, r.n])),
      pending: row?.pending ?? 0,
      oldestPendingAt: row?.oldest ?? null,
      forgotten: row?.forgotten ?? 0,
      planned: row?.planned ?? 0,
      stored: row?.stored ?? 0,
    };
  }

  async oldestPending(): Promise<{ arrivedAt: number; lastError: string | null } | undefined> {
    const row = await this.#db.row<{ arrived: number | null }>(
      `SELECT MIN(m.arrived_at) AS arrived FROM messages m LEFT JOIN chunks c ON c.chunk_id = m.chunk_id
       WHERE m.chunk_id IS NULL OR c.state = 'planned' OR c.needs_delete = 1`,
    );
    if (row?.arrived == null) return undefined;
    const failed = await this.#db.row<{ last_error: string }>(
      "SELECT last_error FROM chunks WHERE state = 'planned' AND last_error IS NOT NULL LIMIT 1",
    );
    return { arrivedAt: row.arrived, lastError: failed === undefined ? null : decodeText(failed.last_error) };
  }

  async memorySpan(bot: string): Promise<{ oldestMs: number; newestMs: number } | undefined> {
    const row = await this.#db.row<{ oldest: number | null; newest: number | null }>(
      'SELECT MIN(ts) AS oldest, MAX(ts) AS newest FROM messages WHERE bot = $1',
      [bot],
    );
    return row?.oldest == null || row.newest == null
      ? undefined
      : { oldestMs: row.oldest, newestMs: row.newest };
  }

  collectionModel(collection: string): Promise<{ model: string; dimensions: number } | undefined> {
    return this.#db.row('SELECT model, dimensions FROM collection_models WHERE collection = $1', [
      collection,
    ]);
  }

  async recordCollectionModel(
    collection: string,
    model: string,
    dimensions: number,
    now: number,
  ): Promise<void> {
    await this.#db.run(
      'INSERT INTO collection_models (collection, model, dimensions, recorded_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING',
      [collection, model, dimensions, now],
    );
  }

  async forgetCollectionModel(collection: string): Promise<void> {
    await this.#db.run('DELETE FROM collection_models WHERE collection = $1', [collection]);
  }

  close(): Promise<void> {
    return this.#close();
  }
}
