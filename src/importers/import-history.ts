/**
 * @module Journals an imported history exactly as `/save` journals a window (same validation, dedup, edits,
 * tombstones, conversations), then writes its chunks with the chunk writer `serve` runs, flushing the imported
 * conversations at once instead of waiting for them to go idle. Chunks are cut and dated by the messages' own
 * times, so the history keeps its real days.
 */
import type { MemoryMessage } from '../chunking/memory-message.js';
import type { MemoryPoolConfig } from '../config/config-types.js';
import type { Embedder } from '../embedding/embedder.js';
import { ChunkWriter } from '../ingest/chunk-writer.js';
import { planReadyChunks } from '../ingest/plan-ready-chunks.js';
import type { Journal } from '../journal/journal.js';
import { conversationKey, type RecordResult } from '../journal/message-journal.js';
import type { Logger } from '../logging/logger.js';
import { createServiceMetrics } from '../metrics/service-metrics.js';
import { createPartsGuard } from '../parts/parts-guard.js';
import { PartsIndex } from '../parts/parts-index.js';
import { createCollectionGuard } from '../store/collection-guard.js';
import {
  CHUNKS_INDEXES,
  PARTS_INDEXES,
  logIndexFailure,
  prepareServiceIndexesBeforeWrites,
} from '../store/service-indexes.js';
import type { ImportedHistory } from './imported-history.js';
import { findKnownSillyTavernIds } from './sillytavern/known-sillytavern-ids.js';
import { validateImportedMessages } from './validate-imported-messages.js';
import type { MemoryStore } from '../store/memory-store.js';

export interface ImportDeps {
  readonly config: MemoryPoolConfig;
  readonly journal: Journal;
  readonly store: MemoryStore;
  readonly embedder: Embedder;
  /**
   * The embedder of the model a reembed recorded for a collection (the CLI asks the service core); default:
   * `embedder` for every collection.
   */
  readonly embedderFor?: (collection: string) => Promise<Embedder>;
  readonly logger: Logger;
  readonly now?: () => number;
}

export interface ImportOptions {
  /** Report what would be journaled and write nothing. */
  readonly dryRun: boolean;
  /** Leave out ids st-qdrant-memory already stored in the bot's collection (the sillytavern importer). */
  readonly skipKnownToSillyTavern: boolean;
  /** Called as work is done: messages journaled, then chunks stored. */
  readonly onProgress?: (phase: 'journal' | 'chunks', done: number, total: number) => void;
}

/** What an import did (or, in a dry run, would do), counted. */
export interface ImportSummary {
  readonly bot: string;
  readonly collection: string;
  readonly source: string;
  readonly dryRun: boolean;
  /** Messages read from the files, before anything is left out. */
  readonly read: number;
  /** Left out by the importer, by reason (system lines, very short ones, …). */
  readonly skipped: Readonly<Record<string, number>>;
  /** Already in the collection as st-qdrant-memory's points. */
  readonly alreadyInSillyTavern: number;
  /** The journal's answer, as `/save` counts it: new, known with the same text, edited, forgotten. */
  readonly accepted: number;
  readonly duplicates: number;
  readonly edited: number;
  readonly forgotten: number;
  /** Chunks written to the store by this run. */
  readonly chunksWritten: number;
  /** Imported messages still waiting for a stored chunk (0 when everything is stored; in a dry run, 0). */
  readonly pendingMessages: number;
  /** The oldest and newest message time imported (Unix ms), when any. */
  readonly oldest: number | undefined;
  readonly newest: number | undefined;
  readonly notes: readonly string[];
}

/** Messages journaled per transaction: short enough that a `/save` beside the import never waits long. */
const JOURNAL_BATCH = 500;
const PLAN_BATCH = 64;
const PROGRESS_POLL_MS = 200;

class DryRunRollback extends Error {}

/** Imports `history` into `botName`'s memory; resolves with the summary. Running it again adds nothing. */
export async function importHistory(
  deps: ImportDeps,
  botName: string,
  history: ImportedHistory,
  options: ImportOptions,
): Promise<ImportSummary> {
  const { config, journal } = deps;
  const now = deps.now ?? Date.now;
  const bot = config.bots[botName]!;
  const arrivedAt = now();
  const validated = validateImportedMessages(history, { config, bot, arrivedAt });
  const unique = keepFirstOfEachId(validated);
  const known = options.skipKnownToSillyTavern
    ? await findKnownSillyTavernIds(deps.store, bot.collection)
    : new Set<string>();
  const messages = unique.filter((m) => !known.has(m.messageId));
  const totals = await recordInBatches(journal, messages, arrivedAt, options);
  // A loop, not Math.min(...): a spread of a large history would overflow the call stack.
  let oldest: number | undefined;
  let newest: number | undefined;
  for (const { ts } of messages) {
    if (oldest === undefined || ts < oldest) oldest = ts;
    if (newest === undefined || ts > newest) newest = ts;
  }
  const summary = {
    bot: botName,
    collection: bot.collection,
    source: history.source,
    dryRun: options.dryRun,
    read: history.messages.length,
    skipped: history.skipped,
    alreadyInSillyTavern: unique.length - messages.length,
    ...totals,
    duplicates: totals.duplicates + (validated.length - unique.length),
    oldest,
    newest,
    notes: history.notes,
  };
  if (options.dryRun) return { ...summary, chunksWritten: 0, pendingMessages: 0 };
  const conversations = new Set(messages.map((m) => conversationKey(m)));
  const chunksWritten = await writeChunks(deps, botName, conversations, options);
  let pendingMessages = 0;
  for (const conversation of conversations) {
    pendingMessages += await journal.unstoredInConversation(botName, conversation);
  }
  return { ...summary, chunksWritten, pendingMessages };
}

/** An id read twice (a SillyTavern branch repeats its parent's messages) is one message: the first copy. */
function keepFirstOfEachId(messages: readonly MemoryMessage[]): MemoryMessage[] {
  const seen = new Set<string>();
  return messages.filter((m) => !seen.has(m.messageId) && seen.add(m.messageId) !== undefined);
}

async function recordInBatches(
  journal: Journal,
  messages: readonly MemoryMessage[],
  arrivedAt: number,
  options: ImportOptions,
): Promise<RecordResult> {
  const totals = { accepted: 0, duplicates: 0, edited: 0, forgotten: 0 };
  for (let start = 0; start < messages.length; start += JOURNAL_BATCH) {
    const batch = messages.slice(start, start + JOURNAL_BATCH);
    const result = options.dryRun
      ? await classifyOnly(journal, batch, arrivedAt)
      : await journal.recordMessages(batch, arrivedAt);
    totals.accepted += result.accepted;
    totals.duplicates += result.duplicates;
    totals.edited += result.edited;
    totals.forgotten += result.forgotten;
    options.onProgress?.('journal', start + batch.length, messages.length);
  }
  return totals;
}

/** A dry run asks the journal itself (the same rules, no copy of them) and rolls the transaction back. */
async function classifyOnly(
  journal: Journal,
  batch: readonly MemoryMessage[],
  arrivedAt: number,
): Promise<RecordResult> {
  let result: RecordResult | undefined;
  try {
    await journal.transaction(async (tx) => {
      result = await tx.recordMessages(batch, arrivedAt);
      throw new DryRunRollback();
    });
  } catch (error) {
    if (!(error instanceof DryRunRollback)) throw error;
  }
  return result!;
}

/** Plans the imported conversations to the end and writes every due chunk; resolves with how many it stored. */
async function writeChunks(
  deps: ImportDeps,
  botName: string,
  conversations: ReadonlySet<string>,
  options: ImportOptions,
) {
  const { config, journal, store, embedder, logger } = deps;
  const now = deps.now ?? Date.now;
  const metrics = createServiceMetrics(() => journal.queueDepth(), { processMetrics: false });
  // The viewer's timeline, recall and a linked person's DM recall read what the import wrote as they read serve's.
  const indexFailed = logIndexFailure(logger);
  const partsGuard = createPartsGuard(store, journal, {
    afterCreate: prepareServiceIndexesBeforeWrites(store, PARTS_INDEXES, indexFailed),
  });
  const parts = new PartsIndex({
    bots: config.bots,
    journal,
    store,
    embedder,
    ...(deps.embedderFor === undefined ? {} : { embedderFor: deps.embedderFor }),
    guard: partsGuard,
  });
  const writer = new ChunkWriter({
    bots: config.bots,
    journal,
    store,
    embedder,
    ...(deps.embedderFor === undefined ? {} : { embedderFor: deps.embedderFor }),
    // A chunk stored while a reembed builds (or just after its switch) reaches the other collection too, as in serve.
    followerOf: (collection) => journal.routes.followerOf(collection),
    // A collection deleted since the last write loses its parts before it is created again.
    guard: createCollectionGuard(store, journal, {
      prepare: prepareServiceIndexesBeforeWrites(store, CHUNKS_INDEXES, indexFailed),
      beforeCreate: async (collection) => void (await partsGuard.dropIfCollectionGone(collection)),
    }),
    metrics,
    logger,
    parts,
    now,
  });
  // Delays chosen by an earlier run may be long for errors since fixed (as serve does on start).
  await journal.chunks.resetRetryDelays();
  const imported = (c: { bot: string; conversation: string }) =>
    c.bot === botName && conversations.has(c.conversation);
  while ((await planReadyChunks(journal, config.bots, now(), imported, PLAN_BATCH)).more) {
    await new Promise((resolve) => setImmediate(resolve));
  }
  const stored = async () =>
    (await metrics.chunksStored.get()).values.reduce((sum, value) => sum + value.value, 0);
  const total = (await journal.queueDepth()).plannedChunks;
  const poll = setInterval(() => {
    void stored().then((done) => options.onProgress?.('chunks', Math.min(done, total), total));
  }, PROGRESS_POLL_MS);
  try {
    await writer.runOnce();
  } finally {
    clearInterval(poll);
    await writer.stop();
  }
  const done = await stored();
  options.onProgress?.('chunks', Math.min(done, total), total);
  return done;
}
