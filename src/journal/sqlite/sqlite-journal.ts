/**
 * @module The Journal port over SQLite: the existing MessageJournal (its queries and semantics unchanged),
 * made async and serialised, plus the lease and claim tables and data_version polling.
 */
import { setImmediate } from 'node:timers/promises';
import type { Database } from 'better-sqlite3';
import type { MemoryMessage } from '../../chunking/memory-message.js';
import { SerialQueue } from '../../runtime/serial-queue.js';
import { toAsync } from '../async-view.js';
import { FORGET_SLICE, type ForgetTarget, type JournalForgetResult, startForget } from '../forget-journal.js';
import type { Journal, JournalChanges, JournalChunks, JournalLeases } from '../journal.js';
import type { JournalDiscord } from '../journal-discord.js';
import type { JournalPeople } from '../journal-people.js';
import type { JournalRenames } from '../journal-renames.js';
import { MessageJournal, openJournalDatabase } from '../message-journal.js';
import { SqliteChanges } from './sqlite-changes.js';
import { applyClaimTables, SqliteChunkClaims, SqliteLeases } from './sqlite-claims.js';
import { SqliteDiscord } from './sqlite-discord.js';
import { SqlitePeople } from './sqlite-people.js';
import { SqliteRenames } from './sqlite-renames.js';

/** Opens (or creates) `journal.sqlite` in `dataDir`, as openMessageJournal does, behind the Journal port. */
export function openSqliteJournal(dataDir: string): Journal {
  return openWithClaims(dataDir, false);
}

/**
 * openSqliteJournal for serve, which is a SQLite journal's one chunk writer: a claim found at start is a killed
 * process's, so it is dropped and its chunks are written (or deleted by a forget) at once, not after 30 s.
 */
export function openServingSqliteJournal(dataDir: string): Journal {
  return openWithClaims(dataDir, true);
}

function openWithClaims(dataDir: string, dropClaims: boolean): Journal {
  const { db, walPath } = openJournalDatabase(dataDir, applyClaimTables);
  const journal = new MessageJournal(db, walPath);
  if (dropClaims) new SqliteChunkClaims(db, journal.chunks).dropAllClaims();
  return new SqliteJournal(db, journal);
}

/** Runs a call now (inside a transaction) or after the calls queued before it (outside one). */
type Runner = <R>(work: () => R) => Promise<Awaited<R>>;

/**
 * One connection shared by every caller: calls queue behind an open transaction (which may await), so
 * nothing of another caller's lands inside it. A transaction's own journal runs its calls directly.
 */
export class SqliteJournal implements Journal {
  readonly chunks: JournalChunks;
  readonly forgetting;
  readonly partsIndexes;
  readonly routes;
  readonly snapshots;
  readonly leases: JournalLeases;
  readonly changes: JournalChanges;
  readonly discord: JournalDiscord;
  readonly people: JournalPeople;
  readonly renames: JournalRenames;

  readonly #db: Database;
  readonly #journal: MessageJournal;
  readonly #run: Runner;
  readonly #depth: number;
  readonly #sqliteChanges: SqliteChanges;

  constructor(
    db: Database,
    journal: MessageJournal,
    inTransaction?: { depth: number; changes: SqliteChanges },
  ) {
    this.#db = db;
    this.#journal = journal;
    this.#depth = inTransaction?.depth ?? 0;
    const gate = new SerialQueue();
    this.#run = (
      inTransaction === undefined
        ? <R>(work: () => R) => gate.enqueue(async () => await work())
        : <R>(work: () => R) => Promise.resolve().then(work)
    ) as Runner;
    this.chunks = {
      ...toAsync(journal.chunks, this.#run),
      ...toAsync(new SqliteChunkClaims(db, journal.chunks), this.#run),
    };
    this.forgetting = {
      ...toAsync(journal.forgetting, this.#run),
      forgetMessages: (
        bot: string,
        targets: readonly ForgetTarget[],
        now: number,
        sources?: readonly string[],
      ) => this.#forgetMessages(bot, targets, now, sources),
    };
    this.partsIndexes = toAsync(journal.partsIndexes, this.#run);
    this.routes = toAsync(journal.routes, this.#run);
    this.snapshots = toAsync(journal.snapshots, this.#run);
    this.leases = toAsync(new SqliteLeases(db), this.#run);
    this.discord = this.#durable(toAsync(new SqliteDiscord(db), this.#run));
    this.people = this.#durablePeople(toAsync(new SqlitePeople(db), this.#run));
    this.renames = this.#durableRenames(toAsync(new SqliteRenames(db), this.#run));
    this.#sqliteChanges = inTransaction?.changes ?? new SqliteChanges(db);
    this.changes = this.#sqliteChanges;
  }

  /**
   * Outside a transaction, each write resolves once its commit is fsynced (as the journal's saves are, and as
   * discord.sqlite's opt-outs were, with synchronous = FULL); inside one, the caller flushes after it.
   */
  #durable(discord: JournalDiscord): JournalDiscord {
    if (this.#depth > 0) return discord;
    const flushed = this.#flushedAfter;
    return {
      readState: discord.readState,
      setOptedOut: flushed(discord.setOptedOut),
      setChannelRule: flushed(discord.setChannelRule),
      markBackfilled: flushed(discord.markBackfilled),
      noteForgotten: flushed(discord.noteForgotten),
      noteThread: flushed(discord.noteThread),
      dropThreads: flushed(discord.dropThreads),
      markConnected: flushed(discord.markConnected),
    };
  }

  /** `write`, resolving once its commit is fsynced. */
  readonly #flushedAfter =
    <A extends unknown[], R>(write: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const result = await write(...args);
      await this.#journal.flush();
      return result;
    };

  /** As #durable: a link or unlink is acknowledged once it survives a crash. */
  #durablePeople(people: JournalPeople): JournalPeople {
    if (this.#depth > 0) return people;
    const flushed = this.#flushedAfter;
    return {
      ...people,
      create: flushed(people.create),
      update: flushed(people.update),
      remove: flushed(people.remove),
      saveLinkCode: flushed(people.saveLinkCode),
      attemptLinkCode: flushed(people.attemptLinkCode),
      releaseLinkCode: flushed(people.releaseLinkCode),
    };
  }

  /** As #durable: queued rewrites survive a crash once the pass sees its requests gone. */
  #durableRenames(renames: JournalRenames): JournalRenames {
    if (this.#depth > 0) return renames;
    return {
      ...renames,
      queueRewrites: this.#flushedAfter(renames.queueRewrites),
      requestRenames: this.#flushedAfter(renames.requestRenames),
    };
  }

  recordMessages(messages: readonly MemoryMessage[], arrivedAt: number) {
    return this.#run(() => this.#journal.recordMessages(messages, arrivedAt));
  }

  /**
   * ForgetJournal.forgetMessages with each slice through the gate on its own (the whole call would hold it
   * for seconds on a big forget, and every /save, recall and /ready would wait behind it).
   */
  async #forgetMessages(
    bot: string,
    targets: readonly ForgetTarget[],
    now: number,
    sources: readonly string[] | undefined,
  ): Promise<JournalForgetResult> {
    const forgetting = this.#journal.forgetting;
    const progress = startForget();
    for (let start = 0; start < targets.length; start += FORGET_SLICE) {
      // A turn of the event loop, so requests that arrived meanwhile queue before the next slice.
      if (start > 0) await setImmediate();
      const slice = targets.slice(start, start + FORGET_SLICE);
      await this.#run(() => forgetting.forgetSlice(bot, slice, now, sources, progress));
    }
    return await this.#run(() => forgetting.finishForget(progress));
  }

  transaction<T>(work: (journal: Journal) => Promise<T>): Promise<T> {
    const depth = this.#depth + 1;
    const inner = new SqliteJournal(this.#db, this.#journal, { depth, changes: this.#sqliteChanges });
    // The outermost is BEGIN IMMEDIATE (see MessageJournal on why writes take the lock first); nested, a savepoint.
    const [begin, commit, rollback] =
      this.#depth === 0
        ? ['BEGIN IMMEDIATE', 'COMMIT', 'ROLLBACK']
        : [`SAVEPOINT tx${depth}`, `RELEASE tx${depth}`, `ROLLBACK TO tx${depth}; RELEASE tx${depth}`];
    return this.#run(async () => {
      this.#db.exec(begin);
      try {
        const result = await work(inner);
        this.#db.exec(commit);
        return result;
      } catch (error) {
        if (this.#db.inTransaction) this.#db.exec(rollback);
        throw error;
      }
    }) as Promise<T>;
  }

  flush() {
    return this.#journal.flush();
  }

  checkWritable() {
    return this.#run(() => this.#journal.checkWritable());
  }

  probeWritable() {
    return this.#run(() => this.#journal.probeWritable());
  }

  pendingConversations() {
    return this.#run(() => this.#journal.pendingConversations());
  }

  pendingMessages(bot: string, conversation: string) {
    return this.#run(() => this.#journal.pendingMessages(bot, conversation));
  }

  unstoredInConversation(bot: string, conversation: string) {
    return this.#run(() => this.#journal.unstoredInConversation(bot, conversation));
  }

  queueDepth() {
    return this.#run(() => this.#journal.queueDepth());
  }

  botCounts(bot: string) {
    return this.#run(() => this.#journal.botCounts(bot));
  }

  oldestPending() {
    return this.#run(() => this.#journal.oldestPending());
  }

  memorySpan(bot: string) {
    return this.#run(() => this.#journal.memorySpan(bot));
  }

  collectionModel(collection: string) {
    return this.#run(() => this.#journal.collectionModel(collection));
  }

  recordCollectionModel(collection: string, model: string, dimensions: number, now: number) {
    return this.#run(() => this.#journal.recordCollectionModel(collection, model, dimensions, now));
  }

  forgetCollectionModel(collection: string) {
    return this.#run(() => this.#journal.forgetCollectionModel(collection));
  }

  async close(): Promise<void> {
    await this.#run(() => undefined); // after whatever is queued
    this.#sqliteChanges.stop();
    this.#journal.close();
  }
}
