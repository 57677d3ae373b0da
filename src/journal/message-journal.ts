/**
 * @module The service's durable journal (SQLite): every message /save acknowledged, the chunks planned from
 * them and whether each chunk is stored yet. A message is committed here before /save answers, so it
 * survives a crash, a restart, or Qdrant and the embedder being down.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import type { MemoryMessage } from '../chunking/memory-message.js';
import { ChunkQueue } from './chunk-queue.js';
import { ForgetJournal } from './forget-journal.js';
import { JournalHealth } from './journal-health.js';
import { applyJournalSchema } from './journal-schema.js';
import { JournalSnapshot } from './journal-snapshot.js';
import { conversationKey, type JournalMessage, type MessageRow, toMessage } from './message-rows.js';
import { PartsIndexState } from './parts-index-state.js';
import { CollectionRoutes } from './reembed-routes.js';
import { WalSync } from './wal-sync.js';

export type { PlannedChunk } from './chunk-queue.js';
export { conversationKey, type JournalMessage } from './message-rows.js';

/** One conversation (bot + source + channel) that has messages not yet cut into a chunk. */
export interface PendingConversation {
  readonly bot: string;
  readonly conversation: string;
  readonly lastArrivalMs: number;
}

export interface RecordResult {
  /** New messages. */
  readonly accepted: number;
  /** Known ids with the same text (re-sent windows): nothing changes. */
  readonly duplicates: number;
  /** Known ids with new text: the message is replaced and its chunk rebuilt in place. */
  readonly edited: number;
  /** Ids forgotten earlier: ignored, so a forget is never undone by a re-send. */
  readonly forgotten: number;
}

/** Opens (or creates) the journal in `dataDir`. */
export function openMessageJournal(dataDir: string): MessageJournal {
  const { db, walPath } = openJournalDatabase(dataDir);
  return new MessageJournal(db, walPath);
}

/**
 * Opens (or creates) `journal.sqlite` in `dataDir` with the journal's pragmas and schema, and `applyMore`'s
 * tables (the Journal port's leases and claims); a refused journal (a newer schema) is not held open.
 */
export function openJournalDatabase(
  dataDir: string,
  applyMore?: (db: Database) => void,
): { db: Database; walPath: string } {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, 'journal.sqlite');
  const db = new BetterSqlite3(path);
  // WAL + NORMAL, with the WAL fsynced by flush() before anything is acknowledged (wal-sync.ts): as
  // durable as FULL, without an fsync on the event loop in every commit.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  try {
    applyJournalSchema(db);
    applyMore?.(db);
  } catch (error) {
    db.close();
    throw error;
  }
  return { db, walPath: `${path}-wal` };
}

/**
 * Typed access to the journal tables; every method is one transaction. Transactions that write begin
 * IMMEDIATE: a second process (import, reindex) may write the same journal, and a deferred transaction that
 * read before the other's commit could not write after it (SQLITE_BUSY_SNAPSHOT, no wait); an immediate one
 * waits for the write lock (busy_timeout) and then reads what is current.
 */
export class MessageJournal {
  readonly #insertMessage;
  readonly #selectMessage;
  readonly #isForgotten;
  readonly #updateText;
  readonly #replanChunk;
  readonly #selectPending;
  readonly #probeWrite;

  /** Whether the last guarded write (saves, forgets) failed because the journal cannot be written. */
  readonly health = new JournalHealth();

  /** The chunks planned from messages and their store writes and deletes, over the same database. */
  readonly chunks: ChunkQueue;
  /** Forget operations over the same database. */
  readonly forgetting: ForgetJournal;
  /** Which collections' parts indexes are complete, over the same database. */
  readonly partsIndexes: PartsIndexState;
  /** Collections switched by reembed to the collection built with the new model. */
  readonly routes: CollectionRoutes;
  /** A bot's rows for export and restore. */
  readonly snapshots: JournalSnapshot;

  readonly #db: Database;
  readonly #walSync: WalSync | undefined;

  /** `walPath` makes flush() fsync it; without one (an in-memory database) there is nothing to flush. */
  constructor(db: Database, walPath?: string) {
    this.#db = db;
    this.#walSync = walPath === undefined ? undefined : new WalSync(walPath, this.health);
    this.chunks = new ChunkQueue(db);
    this.forgetting = new ForgetJournal(db, this.health);
    this.partsIndexes = new PartsIndexState(db);
    this.routes = new CollectionRoutes(db);
    this.snapshots = new JournalSnapshot(db);
    this.#insertMessage = db.prepare(
      `INSERT INTO messages (bot, message_id, source, conversation, speaker_kind, text, ts, user_id,
         speaker_name, channel_id, guild_id, is_dm, arrived_at)
       VALUES (@bot, @messageId, @source, @conversation, @speakerKind, @text, @ts, @userId,
         @speakerName, @channelId, @guildId, @isDm, @arrivedAt)`,
    );
    this.#selectMessage = db.prepare(
      'SELECT text, chunk_id FROM messages WHERE bot = ? AND source = ? AND message_id = ?',
    );
    this.#isForgotten = db.prepare('SELECT sources FROM forgotten_messages WHERE bot = ? AND message_id = ?');
    this.#updateText = db.prepare(
      'UPDATE messages SET text = ? WHERE bot = ? AND source = ? AND message_id = ?',
    );
    this.#replanChunk = db.prepare(
      `UPDATE chunks SET state = 'planned', revision = revision + 1, next_attempt_at = 0, attempts = 0
       WHERE chunk_id = ?`,
    );
    this.#selectPending = db.prepare(
      `SELECT * FROM messages WHERE bot = ? AND conversation = ? AND chunk_id IS NULL
       ORDER BY ts, arrived_at, message_id`,
    );
    // Sixteen pages' worth: a write that needs fresh space, as a save would, then gives it back.
    const insertProbe = db.prepare('INSERT INTO journal_probe (filler) VALUES (zeroblob(65536))');
    const clearProbe = db.prepare('DELETE FROM journal_probe');
    this.#probeWrite = db.transaction(() => {
      insertProbe.run();
      clearProbe.run();
    });
  }

  /**
   * Resolves once every commit made so far is on disk: call it before acknowledging a write (a /save, a
   * forget). The fsync runs off the event loop; concurrent callers share one.
   */
  flush(): Promise<void> {
    return this.#walSync?.flush() ?? Promise.resolve();
  }

  /**
   * For /ready: throws JournalError while the journal cannot be written. Costs nothing while writes succeed;
   * after a failure each call tries one small write, so readiness comes back once there is room again.
   */
  checkWritable(): void {
    if (this.health.failure === undefined) return;
    this.health.write(() => this.#probeWrite.immediate());
  }

  /** For the doctor: one small write now, whatever happened before; throws JournalError when it fails. */
  probeWritable(): void {
    this.health.write(() => this.#probeWrite());
  }

  /**
   * Stores new messages. A known id with the same text is a duplicate (clients re-send windows); with new
   * text it is an edit: the text is replaced and the chunk holding it is planned again, to be rebuilt and
   * overwritten under the same point id. Forgotten ids are ignored.
   */
  recordMessages(messages: readonly MemoryMessage[], arrivedAt: number): RecordResult {
    const record = this.#db.transaction(() => {
      let accepted = 0;
      let duplicates = 0;
      let edited = 0;
      let forgotten = 0;
      for (const m of messages) {
        const tombstone = this.#isForgotten.get(m.bot, m.messageId) as { sources: string | null } | undefined;
        if (
          tombstone &&
          (tombstone.sources === null || (JSON.parse(tombstone.sources) as string[]).includes(m.source))
        ) {
          forgotten += 1;
          continue;
        }
        const existing = this.#selectMessage.get(m.bot, m.source, m.messageId) as
          | { text: string; chunk_id: string | null }
          | undefined;
        if (existing !== undefined) {
          if (existing.text === m.text) {
            duplicates += 1;
            continue;
          }
          this.#updateText.run(m.text, m.bot, m.source, m.messageId);
          if (existing.chunk_id !== null) this.#replanChunk.run(existing.chunk_id);
          edited += 1;
          continue;
        }
        this.#insertMessage.run({
          bot: m.bot,
          messageId: m.messageId,
          source: m.source,
          conversation: conversationKey(m),
          speakerKind: m.speakerKind,
          text: m.text,
          ts: m.ts,
          userId: m.userId ?? null,
          speakerName: m.speakerName ?? null,
          channelId: m.channelId ?? null,
          guildId: m.guildId ?? null,
          isDm: m.isDm === true ? 1 : 0,
          arrivedAt,
        });
        accepted += 1;
      }
      return { accepted, duplicates, edited, forgotten };
    });
    return this.health.write(() => record.immediate());
  }

  /**
   * Runs `work` as one transaction: one commit (one fsync) for all of it, and nothing of it on a throw.
   * The methods it calls, each a transaction of its own elsewhere, become savepoints inside it. `work` is
   * synchronous, so no /save can commit in the middle of it and share (or wait for) its commit.
   */
  transaction<T>(work: () => T): T {
    return this.#db.transaction(work).immediate();
  }

  /** Conversations with messages still waiting for a chunk. */
  pendingConversations(): PendingConversation[] {
    const rows = this.#db
      .prepare(
        `SELECT bot, conversation, MAX(arrived_at) AS last FROM messages WHERE chunk_id IS NULL
         GROUP BY bot, conversation`,
      )
      .all() as { bot: string; conversation: string; last: number }[];
    return rows.map((r) => ({ bot: r.bot, conversation: r.conversation, lastArrivalMs: r.last }));
  }

  /** A conversation's pending messages, oldest first. */
  pendingMessages(bot: string, conversation: string): JournalMessage[] {
    return (this.#selectPending.all(bot, conversation) as MessageRow[]).map(toMessage);
  }

  /** How many of one conversation's messages are not in a stored chunk yet (an import's check that it is done). */
  unstoredInConversation(bot: string, conversation: string): number {
    const row = this.#db
      .prepare(
        `SELECT COUNT(*) AS n FROM messages m LEFT JOIN chunks c ON c.chunk_id = m.chunk_id
         WHERE m.bot = ? AND m.conversation = ? AND (m.chunk_id IS NULL OR c.state = 'planned' OR c.needs_delete = 1)`,
      )
      .get(bot, conversation) as { n: number };
    return row.n;
  }

  /** Counts for /metrics and stats. */
  queueDepth(): { pendingMessages: number; plannedChunks: number; storedChunks: number } {
    const pending = this.#db.prepare('SELECT COUNT(*) AS n FROM messages WHERE chunk_id IS NULL').get() as {
      n: number;
    };
    const chunks = this.#db
      .prepare(
        "SELECT SUM(state = 'planned' OR needs_delete = 1) AS planned, SUM(state = 'stored' AND needs_delete = 0) AS stored FROM chunks",
      )
      .get() as { planned: number | null; stored: number | null };
    return {
      pendingMessages: pending.n,
      plannedChunks: chunks.planned ?? 0,
      storedChunks: chunks.stored ?? 0,
    };
  }

  /** One bot's counts for GET /bots/{bot}/stats. */
  botCounts(bot: string): {
    bySource: Record<string, number>;
    pending: number;
    oldestPendingAt: number | null;
    forgotten: number;
    planned: number;
    stored: number;
  } {
    const sources = this.#db
      .prepare('SELECT source, COUNT(*) AS n FROM messages WHERE bot = ? GROUP BY source ORDER BY source')
      .all(bot) as { source: string; n: number }[];
    const pending = this.#db
      .prepare(
        `SELECT COUNT(*) AS n, MIN(m.arrived_at) AS oldest FROM messages m LEFT JOIN chunks c ON c.chunk_id = m.chunk_id
         WHERE m.bot = ? AND (m.chunk_id IS NULL OR c.state = 'planned' OR c.needs_delete = 1)`,
      )
      .get(bot) as { n: number; oldest: number | null };
    const forgotten = this.#db
      .prepare('SELECT COUNT(*) AS n FROM forgotten_messages WHERE bot = ?')
      .get(bot) as {
      n: number;
    };
    const chunks = this.#db
      .prepare(
        `SELECT COALESCE(SUM(state = 'planned' OR needs_delete = 1), 0) AS planned,
                COALESCE(SUM(state = 'stored' AND needs_delete = 0), 0) AS stored FROM chunks WHERE bot = ?`,
      )
      .get(bot) as { planned: number; stored: number };
    return {
      bySource: Object.fromEntries(sources.map((r) => [r.source, r.n])),
      pending: pending.n,
      oldestPendingAt: pending.oldest,
      forgotten: forgotten.n,
      planned: chunks.planned,
      stored: chunks.stored,
    };
  }

  /**
   * For the doctor: when the longest-waiting message not yet stored in a point arrived, and the last error
   * of a chunk waiting for its write (undefined when nothing waits).
   */
  oldestPending(): { arrivedAt: number; lastError: string | null } | undefined {
    const row = this.#db
      .prepare(
        `SELECT MIN(m.arrived_at) AS arrived FROM messages m LEFT JOIN chunks c ON c.chunk_id = m.chunk_id
         WHERE m.chunk_id IS NULL OR c.state = 'planned' OR c.needs_delete = 1`,
      )
      .get() as { arrived: number | null };
    if (row.arrived === null) return undefined;
    const failed = this.#db
      .prepare("SELECT last_error FROM chunks WHERE state = 'planned' AND last_error IS NOT NULL LIMIT 1")
      .get() as { last_error: string } | undefined;
    return { arrivedAt: row.arrived, lastError: failed?.last_error ?? null };
  }

  /** When a bot's oldest and newest journaled messages were said (ms), or undefined with none. */
  memorySpan(bot: string): { oldestMs: number; newestMs: number } | undefined {
    const row = this.#db
      .prepare('SELECT MIN(ts) AS oldest, MAX(ts) AS newest FROM messages WHERE bot = ?')
      .get(bot) as { oldest: number | null; newest: number | null };
    return row.oldest === null || row.newest === null
      ? undefined
      : { oldestMs: row.oldest, newestMs: row.newest };
  }

  /** The embedding model recorded for a collection the first time memory-pool wrote to it. */
  collectionModel(collection: string): { model: string; dimensions: number } | undefined {
    return this.#db
      .prepare('SELECT model, dimensions FROM collection_models WHERE collection = ?')
      .get(collection) as { model: string; dimensions: number } | undefined;
  }

  recordCollectionModel(collection: string, model: string, dimensions: number, now: number): void {
    this.#db
      .prepare(
        'INSERT INTO collection_models (collection, model, dimensions, recorded_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
      )
      .run(collection, model, dimensions, now);
  }

  /** After memory-pool deleted a collection it owned (its parts): a new one may use another model. */
  forgetCollectionModel(collection: string): void {
    this.#db.prepare('DELETE FROM collection_models WHERE collection = ?').run(collection);
  }

  close(): void {
    this.#walSync?.close();
    this.#db.close();
  }
}
