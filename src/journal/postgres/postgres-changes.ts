/**
 * @module Change notification over Postgres LISTEN/NOTIFY: one dedicated connection, opened on the first
 * watch. When it drops, every topic is reported (something may have changed unheard), it reconnects, and
 * every topic is reported again once it listens (a change committed in between sent its NOTIFY to no one).
 */
import pg from 'pg';
import type { JournalChanges, JournalTopic } from '../journal.js';

/** The channel the journal's writes NOTIFY on, with the topic as payload. */
export const JOURNAL_CHANNEL = 'memory_pool_journal';
const TOPICS: readonly JournalTopic[] = ['routes', 'parts-indexes'];
const RECONNECT_MS = 1000;

export class PostgresChanges implements JournalChanges {
  readonly #config: pg.ClientConfig;
  readonly #listeners = new Set<(topic: JournalTopic) => void>();
  #client: pg.Client | undefined;
  #retry: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(config: pg.ClientConfig) {
    this.#config = config;
  }

  watch(listener: (topic: JournalTopic) => void): () => void {
    this.#listeners.add(listener);
    if (this.#client === undefined && this.#retry === undefined) void this.#listen();
    return () => this.#listeners.delete(listener);
  }

  /** Resolves once the listening connection (if any) is closed. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => undefined);
  }

  #emit(topics: readonly JournalTopic[]): void {
    for (const listener of this.#listeners) for (const topic of topics) listener(topic);
  }

  async #listen(reconnect = false): Promise<void> {
    if (this.#closed) return;
    const client = new pg.Client(this.#config);
    this.#client = client;
    client.on('notification', (message) => {
      const topic = TOPICS.find((known) => known === message.payload);
      if (topic !== undefined) this.#emit([topic]);
    });
    client.on('error', () => this.#reconnect(client));
    client.on('end', () => this.#reconnect(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${JOURNAL_CHANNEL}`);
      // A change committed while no connection listened was never heard: report every topic once listening.
      if (reconnect && this.#client === client) this.#emit(TOPICS);
    } catch {
      this.#reconnect(client);
    }
  }

  #reconnect(client: pg.Client): void {
    if (this.#client !== client || this.#closed) return;
    this.#client = undefined;
    void client.end().catch(() => undefined);
    this.#emit(TOPICS);
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      void this.#listen(true);
    }, RECONNECT_MS);
    this.#retry.unref();
  }
}
