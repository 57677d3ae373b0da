/**
 * @module The journal as an async port: everything MessageJournal and its sub-objects offer, plus what N
 * replicas sharing one journal need (leases, chunk claims, change notification). Implemented over SQLite
 * (`sqlite/`, wrapping MessageJournal) and Postgres (`postgres/`); `test-support/journal-contract.ts` runs
 * the same cases on both. Every caller outside src/journal/ uses this port.
 */
import type { MemoryMessage } from '../chunking/memory-message.js';
import type { PlannedChunk } from './chunk-queue.js';
import type { ForgetAuditEntry, ForgetTarget, JournalForgetResult, MessageMatch } from './forget-journal.js';
import type { JournalDiscord } from './journal-discord.js';
import type { JournalPeople } from './journal-people.js';
import type { JournalRenames } from './journal-renames.js';
import type { JournalRow, RowOrigin, SnapshotNames, SnapshotTable } from './journal-snapshot.js';
import type { PendingConversation, RecordResult } from './message-journal.js';
import type { JournalMessage } from './message-rows.js';
import type { CollectionRoute, ReembedInProgress } from './reembed-routes.js';

/** One bot's counts for GET /bots/{bot}/stats. */
export interface BotCounts {
  readonly bySource: Record<string, number>;
  readonly pending: number;
  readonly oldestPendingAt: number | null;
  readonly forgotten: number;
  readonly planned: number;
  readonly stored: number;
}

/** The journal; every method is one transaction unless it says otherwise. */
export interface Journal {
  /** Stores a window: new ids accepted, same text a duplicate, new text an edit, tombstoned ids ignored. */
  recordMessages(messages: readonly MemoryMessage[], arrivedAt: number): Promise<RecordResult>;
  /**
   * Runs `work` as one transaction on the journal it is given (a nested call is a savepoint); nothing of it
   * stays on a throw. On SQLite, other callers of this journal object wait until it ends; on Postgres they
   * run beside it on other connections (only the rows and ids it locks make them wait), and a transaction
   * Postgres aborts in a lock conflict may run `work` again.
   */
  transaction<T>(work: (journal: Journal) => Promise<T>): Promise<T>;
  /** Resolves once every commit so far is durable (SQLite fsyncs its WAL; Postgres commits durably). */
  flush(): Promise<void>;
  /** For /ready: rejects with JournalError while the journal cannot be written (or reached). */
  checkWritable(): Promise<void>;
  /** For the doctor: one small write now; rejects with JournalError when it fails. */
  probeWritable(): Promise<void>;
  pendingConversations(): Promise<PendingConversation[]>;
  pendingMessages(bot: string, conversation: string): Promise<JournalMessage[]>;
  unstoredInConversation(bot: string, conversation: string): Promise<number>;
  queueDepth(): Promise<{ pendingMessages: number; plannedChunks: number; storedChunks: number }>;
  botCounts(bot: string): Promise<BotCounts>;
  oldestPending(): Promise<{ arrivedAt: number; lastError: string | null } | undefined>;
  memorySpan(bot: string): Promise<{ oldestMs: number; newestMs: number } | undefined>;
  collectionModel(collection: string): Promise<{ model: string; dimensions: number } | undefined>;
  recordCollectionModel(collection: string, model: string, dimensions: number, now: number): Promise<void>;
  /** After memory-pool deleted a collection it owned (its parts): a new one may use another model. */
  forgetCollectionModel(collection: string): Promise<void>;

  readonly chunks: JournalChunks;
  readonly forgetting: JournalForgetting;
  readonly partsIndexes: JournalPartsIndexes;
  readonly routes: JournalRoutes;
  readonly snapshots: JournalSnapshots;
  readonly leases: JournalLeases;
  readonly changes: JournalChanges;
  /** Each bot's Discord interface state (journal-discord.ts). */
  readonly discord: JournalDiscord;
  /** Each bot's people, their linked accounts and link codes (journal-people.ts). */
  readonly people: JournalPeople;
  /** The rename pass's requests and the chunks it queued (journal-renames.ts). */
  readonly renames: JournalRenames;
  close(): Promise<void>;
}

/** The chunk queue (see chunk-queue.ts for each method's meaning), plus claims so replicas never write one chunk twice. */
export interface JournalChunks {
  planChunk(
    chunk: {
      chunkId: string;
      bot: string;
      collection: string;
      source: string;
      messageIds: readonly string[];
    },
    now: number,
  ): Promise<void>;
  dueChunks(now: number, limit: number): Promise<PlannedChunk[]>;
  plannedChunks(chunkIds: readonly string[]): Promise<PlannedChunk[]>;
  storedChunks(bot: string): Promise<PlannedChunk[]>;
  storedAmong(chunkIds: readonly string[]): Promise<PlannedChunk[]>;
  hasChunk(chunkId: string): Promise<boolean>;
  /**
   * Chunks whose point must be deleted, except those with a live write claim (expires_at > now): a claimed
   * write may still land after the delete, so the delete waits until the claim is released or expires.
   */
  dueDeletions(now: number, limit: number): Promise<PlannedChunk[]>;
  makeDeletionsDue(bot: string): Promise<void>;
  hasPendingDeletions(bot: string): Promise<boolean>;
  /**
   * Whether a delete for `bot` waits with no live write claim on its chunk (expires_at > now): right after the
   * due deletes ran, only a store that failed them leaves such a delete (a claimed one waits for its writer).
   */
  hasUnclaimedDeletions(bot: string, now: number): Promise<boolean>;
  nextChunkDueAt(): Promise<number | undefined>;
  chunkMessages(chunkId: string): Promise<JournalMessage[]>;
  makeChunksDue(chunkIds: readonly string[]): Promise<void>;
  resetRetryDelays(): Promise<void>;
  /**
   * Whether the write applied: false when the chunk moved on meanwhile (a new revision, a forget's pending
   * delete, or the row is gone). Then the point just written may hold forgotten or old text, and the caller
   * MUST call requeueStaleWrite for it before releasing its claim.
   */
  markChunkStored(chunkId: string, revision: number, now: number): Promise<boolean>;
  /**
   * Queues what puts the store right after a write markChunkStored refused: the row gone, a delete of the
   * point; stored since (by another write), a rewrite; a write or delete already pending, nothing more.
   */
  requeueStaleWrite(
    chunk: { chunkId: string; bot: string; collection: string; revision: number },
    now: number,
  ): Promise<void>;
  /**
   * After the point was deleted: drops an emptied chunk, plans one with messages left again. While another
   * holder's write claim on the chunk is live at `now`, it does nothing: the delete stays due and is redone
   * once the claim ends (the claimed write may land after this delete).
   */
  markChunkDeleted(chunkId: string, revision: number, now: number): Promise<void>;
  markChunkFailed(chunkId: string, revision: number, error: string, nextAttemptAt: number): Promise<void>;
  /**
   * Due writes (as dueChunks) that no holder (this one included) has a live claim on, claimed for `holder` until
   * now + leaseMs. A replica killed mid-write leaves its claim to expire; another then claims the chunk.
   */
  claimDueChunks(holder: string, now: number, limit: number, leaseMs: number): Promise<PlannedChunk[]>;
  /**
   * Those of `chunkIds` waiting for a write (whatever their due time) that no holder has a live claim on, claimed
   * for `holder` until now + leaseMs, in the order asked: a forget's own rewrite of the chunks it changed.
   */
  claimChunks(
    holder: string,
    chunkIds: readonly string[],
    now: number,
    leaseMs: number,
  ): Promise<PlannedChunk[]>;
  /**
   * Extends `holder`'s claims on `chunks` that are still live at `now` to now + leaseMs, in one statement, and
   * answers the ids it still holds whose chunk still waits for the write of the revision given (no forget or edit
   * moved it on since it was read: such a write would only be undone). A claim that expired is lost even if nobody
   * took it over: a forget may have judged it dead and deleted the point already (markChunkDeleted drops it
   * then), so it is never revived.
   */
  renewChunkClaims(
    holder: string,
    chunks: readonly ClaimedRevision[],
    now: number,
    leaseMs: number,
  ): Promise<string[]>;
  /** Gives claims back early (the write is done or failed). */
  releaseChunkClaims(holder: string, chunkIds: readonly string[]): Promise<void>;
}

/** A claimed chunk and the revision its writer read. */
export interface ClaimedRevision {
  readonly chunkId: string;
  readonly revision: number;
}

/** Forgetting (see forget-journal.ts). forgetMessages runs in slices, one transaction each. */
export interface JournalForgetting {
  findMatching(bot: string, match: MessageMatch, sources?: readonly string[]): Promise<ForgetTarget[]>;
  forgetMessages(
    bot: string,
    targets: readonly ForgetTarget[],
    now: number,
    sources?: readonly string[],
  ): Promise<JournalForgetResult>;
  journaledAmong(bot: string, source: string, messageIds: readonly string[]): Promise<Set<string>>;
  /** What `source` journaled for `bot` in one channel with `ts` in [fromTs, toTs], oldest first. */
  journaledInChannel(
    bot: string,
    source: string,
    channelId: string,
    fromTs: number,
    toTs: number,
  ): Promise<ChannelMessage[]>;
  forgottenAmong(bot: string, messageIds: readonly string[]): Promise<Set<string>>;
  recordAudit(entry: Omit<ForgetAuditEntry, 'id'>): Promise<void>;
  listAudit(options: { bot?: string; limit: number }): Promise<ForgetAuditEntry[]>;
}

/** A journaled message of a channel, as the Discord gap back-fill compares it with the channel's history. */
export interface ChannelMessage {
  readonly id: string;
  readonly ts: number;
  readonly text: string;
}

/** Parts-index state (see parts-index-state.ts). */
export interface JournalPartsIndexes {
  recordStarted(collection: string, complete: boolean, now: number): Promise<void>;
  markComplete(collection: string, now: number): Promise<void>;
  /** Before a reembed builds `collection`'s parts: incomplete until its parts pass marks it complete. */
  markIncomplete(collection: string, now: number): Promise<void>;
  /** Drops the record of `collection`'s parts index (its collection was deleted). */
  forget(collection: string): Promise<void>;
  isComplete(collection: string): Promise<boolean | undefined>;
}

/** Collection routes, reembeds and recorded embeddings (see reembed-routes.ts). */
export interface JournalRoutes {
  routeOf(collection: string): Promise<CollectionRoute | undefined>;
  activeCollection(collection: string): Promise<string>;
  resolve(name: string): Promise<string>;
  switchTo(collection: string, target: string, now: number): Promise<void>;
  forgetPrevious(collection: string): Promise<void>;
  beginReembed(
    collection: string,
    source: string,
    target: string,
    embedding: string,
    now: number,
  ): Promise<void>;
  reembedOf(collection: string): Promise<ReembedInProgress | undefined>;
  /** Whether `name` is the target a reembed in progress is building. */
  isReembedTarget(name: string): Promise<boolean>;
  followerOf(written: string): Promise<string | undefined>;
  embeddingOf(collection: string): Promise<string | undefined>;
}

/** Export/restore rows (see journal-snapshot.ts). */
export interface JournalSnapshots {
  readRows(table: SnapshotTable, names: SnapshotNames): Promise<JournalRow[]>;
  insertRows(
    table: SnapshotTable,
    rows: readonly JournalRow[],
    from: SnapshotNames,
    to: SnapshotNames,
    originOf?: RowOrigin,
  ): Promise<number>;
  /** Rejects with what insertRows would refuse in `rows`, writing nothing (a rolled-back trial). */
  checkRows(
    rows: Partial<Record<SnapshotTable, readonly JournalRow[]>>,
    from: SnapshotNames,
    to: SnapshotNames,
    originOf?: RowOrigin,
  ): Promise<void>;
  restoreOf(collection: string): Promise<{ snapshot: string; complete: boolean } | undefined>;
  recordRestore(collection: string, snapshot: string, complete: boolean, now: number): Promise<void>;
}

/**
 * Named leases for work one replica at a time must do (the Discord gateway, a conversation's chunk
 * planning, a reembed pass, an import): held until they expire unless renewed, so a killed holder's lease
 * passes to another replica. Expiry (of leases and chunk claims) is on the server's clock on Postgres, so
 * replicas whose clocks disagree still agree; the `now` passed is used by SQLite (one machine, one clock)
 * and by a Postgres journal opened with `callerClock` (tests).
 */
export interface JournalLeases {
  /** Takes `name` for `holder` until now + ttlMs if it is free, expired, or already `holder`'s (a renewal). */
  acquire(name: string, holder: string, ttlMs: number, now: number): Promise<boolean>;
  /** Gives the lease up, if `holder` still has it. */
  release(name: string, holder: string): Promise<void>;
  /** Who holds `name` at `now`, if anyone. */
  holderOf(name: string, now: number): Promise<string | undefined>;
}

/** What another replica (or process) changed that a replica keeps in memory. */
export type JournalTopic = 'routes' | 'parts-indexes';

/** Change notification: Postgres LISTEN/NOTIFY; SQLite polls its data version. */
export interface JournalChanges {
  /** Calls `listener` after a change another connection committed (possibly more often); returns the unwatch. */
  watch(listener: (topic: JournalTopic) => void): () => void;
}
