/**
 * @module Change notification for the SQLite journal: SQLite has no NOTIFY, so a watched journal polls
 * `PRAGMA data_version`, which moves when another connection (a reembed, an import) commits.
 */
import type { Database } from 'better-sqlite3';
import type { JournalChanges, JournalTopic } from '../journal.js';

const TOPICS: readonly JournalTopic[] = ['routes', 'parts-indexes'];

/** Polls while anyone watches; any commit by another connection is reported as every topic. */
export class SqliteChanges implements JournalChanges {
  readonly #db: Database;
  readonly #intervalMs: number;
  readonly #listeners = new Set<(topic: JournalTopic) => void>();
  #timer: NodeJS.Timeout | undefined;
  #version = 0;

  constructor(db: Database, intervalMs = 1000) {
    this.#db = db;
    this.#intervalMs = intervalMs;
  }

  watch(listener: (topic: JournalTopic) => void): () => void {
    this.#listeners.add(listener);
    if (this.#timer === undefined) {
      this.#version = this.#readVersion();
      this.#timer = setInterval(() => this.#poll(), this.#intervalMs);
      this.#timer.unref(); // a watch never keeps the process alive
    }
    return () => {
      this.#listeners.delete(listener);
      if (this.#listeners.size === 0) this.stop();
    };
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #readVersion(): number {
    return this.#db.pragma('data_version', { simple: true }) as number;
  }

  #poll(): void {
    if (!this.#db.open) {
      this.stop();
      return;
    }
    const version = this.#readVersion();
    if (version === this.#version) return;
    this.#version = version;
    for (const listener of this.#listeners) for (const topic of TOPICS) listener(topic);
  }
}
