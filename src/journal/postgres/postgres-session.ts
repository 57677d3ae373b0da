/**
 * @module The slice of node-postgres the journal uses: queries on the pool or, inside a transaction, on the
 * one client that holds it; a nested transaction is a savepoint.
 */
import type pg from 'pg';
import { toPostgresJournalError } from './postgres-errors.js';

/** How a journal's sessions behave (see PostgresJournalOptions). */
export interface SessionSettings {
  /** Runs after the first of a transaction aborted by a deadlock (40P01) or serialization failure (40001). */
  readonly retries: number;
  /** Lease and claim expiry on the server's clock (replicas' clocks may disagree); false only in tests. */
  readonly serverClock: boolean;
}

const DEFAULT_SETTINGS: SessionSettings = { retries: 3, serverClock: true };

/** The server's clock in ms since the epoch, as the journal's timestamps are. */
export const SERVER_NOW_MS = '(extract(epoch from statement_timestamp()) * 1000)::bigint';

/** Whether Postgres aborted the work to break a lock conflict (the JournalError made of it included). */
function isConflict(error: unknown): boolean {
  const code = (error as { code?: unknown; cause?: { code?: unknown } }).code;
  const cause = (error as { cause?: { code?: unknown } }).cause?.code;
  return [code, cause].some((c) => c === '40P01' || c === '40001');
}

/** What both a pool and a checked-out client offer. */
type Queryable = Pick<pg.Pool, 'query'> | pg.PoolClient;

/**
 * Queries for one connection scope: the pool (each call its own transaction), or one open transaction.
 * A failure that means Postgres cannot take writes now (unreachable, full, restarting) becomes JournalError,
 * a retryable 503, wherever it happens; anything else is thrown as the driver threw it.
 */
export class PgSession {
  readonly #pool: pg.Pool;
  readonly #url: string;
  readonly #client: pg.PoolClient | undefined;
  readonly #depth: number;
  readonly #settings: SessionSettings;

  /** `url` only words errors (its password hidden). */
  constructor(
    pool: pg.Pool,
    url: string,
    settings: SessionSettings = DEFAULT_SETTINGS,
    client?: pg.PoolClient,
    depth = 0,
  ) {
    this.#pool = pool;
    this.#url = url;
    this.#settings = settings;
    this.#client = client;
    this.#depth = depth;
  }

  /**
   * The `now` a lease or claim expiry is compared with, as a query value: null on the server's clock
   * (the SQL reads `COALESCE($n::bigint, SERVER_NOW_MS)`), the caller's `now` only when a test asks.
   */
  expiryNow(now: number): number | null {
    return this.#settings.serverClock ? null : now;
  }

  async #query(sql: string, values: readonly unknown[]): Promise<pg.QueryResult> {
    const target: Queryable = this.#client ?? this.#pool;
    // A statement on the pool is its own transaction, so it is safe to run again after a conflict.
    const attempts = this.#client === undefined ? this.#settings.retries + 1 : 1;
    for (let attempt = 1; ; attempt++) {
      try {
        return await target.query(sql, values as unknown[]);
      } catch (error) {
        if (attempt < attempts && isConflict(error)) continue;
        throw toPostgresJournalError(error, this.#url) ?? error;
      }
    }
  }

  /** The rows of one statement. */
  async rows<T>(sql: string, values: readonly unknown[] = []): Promise<T[]> {
    const result = await this.#query(sql, values);
    return result.rows as T[];
  }

  /** The first row of one statement, if any. */
  async row<T>(sql: string, values: readonly unknown[] = []): Promise<T | undefined> {
    return (await this.rows<T>(sql, values))[0];
  }

  /** Runs one statement; how many rows it changed. */
  async run(sql: string, values: readonly unknown[] = []): Promise<number> {
    const result = await this.#query(sql, values);
    return result.rowCount ?? 0;
  }

  /** Runs `work` in one transaction (a savepoint when this session already is one). */
  async transaction<T>(work: (session: PgSession) => Promise<T>): Promise<T> {
    if (this.#client !== undefined) {
      const name = `tx${this.#depth + 1}`;
      await this.#client.query(`SAVEPOINT ${name}`);
      try {
        const result = await work(
          new PgSession(this.#pool, this.#url, this.#settings, this.#client, this.#depth + 1),
        );
        await this.#client.query(`RELEASE SAVEPOINT ${name}`);
        return result;
      } catch (error) {
        await this.#client.query(`ROLLBACK TO SAVEPOINT ${name}`);
        throw error;
      }
    }
    // Postgres breaks a deadlock or a serialization conflict by aborting one side: run it again, a few times.
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#once(work);
      } catch (error) {
        if (attempt > this.#settings.retries || !isConflict(error)) throw error;
      }
    }
  }

  async #once<T>(work: (session: PgSession) => Promise<T>): Promise<T> {
    const client = await this.#pool.connect().catch((error: unknown) => {
      throw toPostgresJournalError(error, this.#url) ?? error;
    });
    // pg-pool drops its own 'error' listener while a client is checked out: without this one, a server that
    // goes away between two statements (restart, failover, a terminated backend) would end the process.
    let lost: unknown;
    const onError = (error: unknown) => {
      lost ??= error;
    };
    client.on('error', onError);
    let broken = false;
    try {
      const session = new PgSession(this.#pool, this.#url, this.#settings, client, 1);
      await session.run('BEGIN');
      const result = await work(session);
      await session.run('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {
        broken = true; // a connection that cannot roll back is not handed to the next caller
      });
      // The lost connection is the cause, whatever the work threw on noticing it.
      if (lost !== undefined) throw toPostgresJournalError(lost, this.#url) ?? error;
      throw error;
    } finally {
      client.removeListener('error', onError);
      client.release(broken || lost !== undefined);
    }
  }

  /** Rejects with JournalError unless the server takes writes now (a standby or read-only database does not). */
  async checkWritable(): Promise<void> {
    const row = await this.row<{ standby: boolean; read_only: string }>(
      "SELECT pg_is_in_recovery() AS standby, current_setting('transaction_read_only') AS read_only",
    );
    if (row?.standby === true || row?.read_only === 'on') {
      const readOnly = Object.assign(new Error('the server takes no writes'), { code: '25006' });
      throw toPostgresJournalError(readOnly, this.#url) ?? readOnly;
    }
  }

  /** Locks the given chunk rows until the transaction ends, in chunk id order, so two never deadlock on them. */
  async lockChunks(chunkIds: readonly string[]): Promise<void> {
    if (this.#client === undefined) throw new Error('lockChunks needs a transaction');
    if (chunkIds.length === 0) return;
    await this.run('SELECT 1 FROM chunks WHERE chunk_id = ANY($1) ORDER BY chunk_id FOR UPDATE', [
      [...new Set(chunkIds)],
    ]);
  }

  /** Locks the given (bot, message id) pairs until the transaction ends, in one order, so two never deadlock. */
  async lockMessageIds(bot: string, messageIds: readonly string[]): Promise<void> {
    if (this.#client === undefined) throw new Error('lockMessageIds needs a transaction');
    if (messageIds.length === 0) return;
    await this.run(
      `SELECT pg_advisory_xact_lock(h) FROM (
         SELECT DISTINCT hashtextextended($1 || chr(1) || id, 0) AS h FROM unnest($2::text[]) AS id ORDER BY 1
       ) AS ordered`,
      [bot, messageIds],
    );
  }
}
