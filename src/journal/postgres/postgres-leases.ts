/** @module Named leases in Postgres: one upsert whose conflict clause only takes a free, expired or own lease. */
import type { JournalLeases } from '../journal.js';
import { type PgSession, SERVER_NOW_MS } from './postgres-session.js';

const NOW = (n: number) => `COALESCE($${n}::bigint, ${SERVER_NOW_MS})`;

/** Expiry on the server's clock unless the journal was opened with the caller's (see PgSession.expiryNow). */
export class PostgresLeases implements JournalLeases {
  readonly #db: PgSession;

  constructor(db: PgSession) {
    this.#db = db;
  }

  /** The conflict clause runs on the row's latest committed version, so two replicas never both win. */
  async acquire(name: string, holder: string, ttlMs: number, now: number): Promise<boolean> {
    const changed = await this.#db.run(
      `INSERT INTO journal_leases (name, holder, expires_at) VALUES ($1, $2, ${NOW(4)} + $3::bigint)
       ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
       WHERE journal_leases.holder = excluded.holder OR journal_leases.expires_at <= ${NOW(4)}`,
      [name, holder, ttlMs, this.#db.expiryNow(now)],
    );
    return changed === 1;
  }

  async release(name: string, holder: string): Promise<void> {
    await this.#db.run('DELETE FROM journal_leases WHERE name = $1 AND holder = $2', [name, holder]);
  }

  async holderOf(name: string, now: number): Promise<string | undefined> {
    const row = await this.#db.row<{ holder: string }>(
      `SELECT holder FROM journal_leases WHERE name = $1 AND expires_at > ${NOW(2)}`,
      [name, this.#db.expiryNow(now)],
    );
    return row?.holder;
  }
}
