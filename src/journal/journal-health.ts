/**
 * @module Whether the journal can be written. SQLite's disk-full, read-only, I/O and cannot-open failures are
 * no bug: they become one retryable 503 (`journal_unavailable`) and are remembered until a write succeeds
 * again, so `/ready` says so meanwhile and recovers by itself once there is room.
 */
import BetterSqlite3 from 'better-sqlite3';
import { JournalError } from '../errors/memory-pool-error.js';

/** SQLite result codes (and their extended forms, e.g. SQLITE_IOERR_WRITE) that mean "cannot write here". */
const UNWRITABLE: readonly (readonly [RegExp, string])[] = [
  [/^SQLITE_FULL/, 'the disk under dataDir is full'],
  [/^SQLITE_READONLY/, 'the journal is read-only'],
  [/^SQLITE_IOERR/, 'the disk under dataDir reported an I/O error'],
  [/^SQLITE_CANTOPEN/, 'the journal file cannot be opened'],
];

/** The JournalError for an SQLite failure that means the journal cannot be written, else undefined. */
export function toJournalError(error: unknown): JournalError | undefined {
  if (!(error instanceof BetterSqlite3.SqliteError)) return undefined;
  const reason = UNWRITABLE.find(([pattern]) => pattern.test(error.code))?.[1];
  if (reason === undefined) return undefined;
  return new JournalError(
    `the journal cannot be written: ${reason} (${error.code}); free disk space or fix the permissions of dataDir, then retry (no restart needed)`,
    error,
  );
}

/** Remembers the last journal write failure until a write succeeds. */
export class JournalHealth {
  #failure: JournalError | undefined;

  /** The failure of the last write, while it lasts. */
  get failure(): JournalError | undefined {
    return this.#failure;
  }

  /** Records a failure found outside a transaction (an fsync of the WAL); the next good write clears it. */
  failed(failure: JournalError): void {
    this.#failure = failure;
  }

  /** Runs one journal write (a transaction); an unwritable journal throws JournalError, anything else as is. */
  write<T>(run: () => T): T {
    try {
      const result = run();
      this.#failure = undefined;
      return result;
    } catch (error) {
      const failure = toJournalError(error);
      if (failure === undefined) throw error;
      this.#failure = failure;
      throw failure;
    }
  }
}
