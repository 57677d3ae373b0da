/**
 * @module `memory-pool reindex`'s work: builds the parts of every chunk memory-pool stored for a bot (from the
 * journal, through the write path's PartsIndex), then marks the bot's parts index complete so recall turns hybrid.
 */
import { isDeepStrictEqual } from 'node:util';
import { formatChunk } from '../chunking/chunk-format.js';
import type { MemoryPoolConfig } from '../config/config-types.js';
import type { PlannedChunk } from '../journal/chunk-queue.js';
import { type LeaseGuard, runUnderLease, UNLEASED } from '../journal/hold-lease.js';
import type { Journal } from '../journal/journal.js';
import { toPeopleNames } from '../people/people-names.js';
import { sleep } from '../runtime/retry.js';
import type { HybridPointStore } from '../store/hybrid-point-store.js';
import type { PointStore } from '../store/point-store.js';
import { unsourcedPoints } from '../store/store-filters.js';
import { partsCollectionName } from './parts-collection-name.js';
import { type ChunkToIndex, type PartsIndex, partsOfChunks } from './parts-index.js';

export interface ReindexDeps {
  /** The bots, each with the collection whose parts to build (after a switch: the routed one). */
  readonly config: Pick<MemoryPoolConfig, 'bots'>;
  readonly journal: Journal;
  readonly store: PointStore & HybridPointStore;
  readonly parts: PartsIndex;
}

export interface ReindexOptions {
  /** Report what would be written, write nothing (not even the complete flag). */
  readonly dryRun?: boolean;
  /** Chunks per embedding call and upsert (default 32). */
  readonly batchSize?: number;
  /** Called after each batch with the chunks checked so far. */
  readonly onProgress?: (done: number, total: number) => void;
  /** How long a chunk that `serve` is rewriting meanwhile may take to settle (default 30 s). */
  readonly settleMs?: number;
  /**
   * The collection whose stored chunks to index (default: the bot's own). A reembed builds the parts of the
   * collection it is about to switch to from the chunks still recorded in the one in use.
   */
  readonly chunksIn?: string;
  /** Whether to mark the index complete when done (default true; a reembed marks it after every bot's pass). */
  readonly markComplete?: boolean;
}

export interface ReindexSummary {
  readonly bot: string;
  readonly collection: string;
  readonly dryRun: boolean;
  /** Chunks memory-pool stored for the bot in its collection, per the journal. */
  readonly chunks: number;
  /** Chunks whose parts were already exactly what the write path builds (left untouched). */
  readonly upToDate: number;
  /** Chunks whose parts were (or, in a dry run, would be) written. */
  readonly reindexed: number;
  /** Part points upserted (or that would be). */
  readonly partsWritten: number;
  /** Chunks `serve` changed while they were reindexed and that did not settle: a rerun finishes them. */
  readonly unsettled: number;
  /** Whether the parts index is now marked complete (recall is hybrid). */
  readonly complete: boolean;
  /** SillyTavern's own points (no `source`): they have no journal rows and are not reindexed. */
  readonly sillyTavernPoints: number;
}

const SILLYTAVERN_POINTS = unsourcedPoints();
/** How often a chunk that serve is rewriting is looked at again while it settles. */
const SETTLE_POLL_MS = 200;

/**
 * Reindexes one bot's collection; throws on store or embedder failures (a rerun redoes what is not done).
 * One reindex of a collection at a time, from any machine: each holds `reindex:<collection>` (a dry run needs none).
 */
export async function reindexParts(
  deps: ReindexDeps,
  botName: string,
  options: ReindexOptions = {},
): Promise<ReindexSummary> {
  const collection = deps.config.bots[botName]?.collection;
  if (options.dryRun === true || collection === undefined)
    return reindexLeased(deps, botName, options, UNLEASED);
  const lease = {
    name: `reindex:${collection}`,
    what: `memory-pool reindex of bot ${botName}`,
    field: '--bot',
  };
  return runUnderLease(deps.journal.leases, lease, (guard) => reindexLeased(deps, botName, options, guard));
}

async function reindexLeased(
  deps: ReindexDeps,
  botName: string,
  options: ReindexOptions,
  guard: LeaseGuard,
): Promise<ReindexSummary> {
  const { config, journal, store, parts } = deps;
  const bot = config.bots[botName];
  if (bot === undefined) throw new RangeError(`bot ${botName} is not configured`);
  const collection = bot.collection;
  const partsName = partsCollectionName(collection);
  const dryRun = options.dryRun === true;
  const batchSize = options.batchSize ?? 32;
  const chunksIn = options.chunksIn ?? collection;
  const chunks = (await journal.chunks.storedChunks(botName)).filter((c) => c.collection === chunksIn);
  let partsExist = (await store.describeCollection(partsName)) !== undefined;
  let upToDate = 0;
  let reindexed = 0;
  let partsWritten = 0;
  let unsettled = 0;

  // What the write path would store for these chunks now, minus the chunks whose parts already are exactly that.
  const planStale = async (batch: readonly PlannedChunk[]) => {
    const toIndex = await indexable(journal, batch, bot);
    const planned = await parts.planPoints(toIndex, collection);
    if (!partsExist) return { stale: toIndex, planned, indexed: toIndex.length };
    const existing = new Map(
      (
        await store.retrievePoints(
          partsName,
          planned.map((p) => p.id),
        )
      ).map((r) => [String(r.id), r.payload]),
    );
    const extra =
      (await store.countPoints(partsName, partsOfChunks(toIndex.map((c) => c.chunkId)))) - existing.size;
    const fresh = new Set(toIndex.map((c) => c.chunkId));
    for (const p of planned) {
      if (!isDeepStrictEqual(existing.get(p.id), { ...p.payload })) fresh.delete(p.payload.chunkId);
    }
    // A part no planned id covers (a window that changed): rewrite the whole batch, writeParts drops it.
    const stale = extra > 0 ? toIndex : toIndex.filter((c) => !fresh.has(c.chunkId));
    return {
      stale,
      planned: planned.filter((p) => stale.some((c) => c.chunkId === p.payload.chunkId)),
      indexed: toIndex.length,
    };
  };

  for (let start = 0; start < chunks.length; start += batchSize) {
    // Read again: serve may have edited or forgotten these chunks since the list was taken (a pass takes minutes).
    const listed = chunks.slice(start, start + batchSize);
    const batch = await journal.chunks.storedAmong(listed.map((c) => c.chunkId));
    const stored = new Set(batch.map((c) => c.chunkId));
    // Gone for good (forgotten): their parts go too. Those still in the journal serve writes again, parts first.
    const gone: PlannedChunk[] = [];
    for (const c of listed) {
      if (!stored.has(c.chunkId) && !(await journal.chunks.hasChunk(c.chunkId))) gone.push(c);
    }
    if (!dryRun && gone.length > 0 && partsExist) {
      await parts.deleteParts(
        collection,
        gone.map((c) => c.chunkId),
      );
    }
    const { stale, planned, indexed } = await planStale(batch);
    upToDate += indexed - stale.length;
    reindexed += stale.length;
    partsWritten += planned.length;
    if (!dryRun && stale.length > 0) {
      await parts.writeParts(collection, stale);
      partsExist = true;
      unsettled += await settleChanged(deps, collection, batch, options.settleMs ?? 30_000);
    }
    options.onProgress?.(start + batch.length, chunks.length);
  }
  let complete = (await journal.partsIndexes.isComplete(collection)) === true;
  if (options.markComplete !== false && !dryRun && unsettled === 0 && (partsExist || chunks.length === 0)) {
    // The parts switch: recall uses the index from here on, so a pass that lost its lease stops before it.
    await guard.ensureHeld(`marking the parts index of ${collection} complete`);
    await journal.partsIndexes.markComplete(collection, Date.now());
    complete = true;
  }
  const sillyTavernPoints = await store.countPoints(collection, SILLYTAVERN_POINTS);
  return {
    bot: botName,
    collection,
    dryRun,
    chunks: chunks.length,
    upToDate,
    reindexed,
    partsWritten,
    unsettled,
    complete,
    sillyTavernPoints,
  };
}

/**
 * `serve` may edit or forget a chunk while its parts are being written: if the chunk's revision moved, the
 * parts just upserted may be older than the write path's. Waits until such a chunk is stored again (then
 * writes its parts from the journal once more) or gone (then deletes its parts); returns those still moving.
 */
async function settleChanged(
  deps: ReindexDeps,
  collection: string,
  batch: readonly PlannedChunk[],
  settleMs: number,
): Promise<number> {
  const { journal, parts, config } = deps;
  const deadline = Date.now() + settleMs;
  const watching = new Map(batch.map((c) => [c.chunkId, c.revision]));
  while (watching.size > 0) {
    const current = new Map(
      (await journal.chunks.storedAmong([...watching.keys()])).map((c) => [c.chunkId, c]),
    );
    const restored: PlannedChunk[] = [];
    const gone: string[] = [];
    for (const [id, revision] of watching) {
      const chunk = current.get(id);
      if (chunk?.revision === revision) watching.delete(id);
      else if (chunk !== undefined) restored.push(chunk);
      // Gone for good: its id comes from its message ids, and forgotten ids never come back.
      else if (!(await journal.chunks.hasChunk(id))) gone.push(id);
      // else serve still has to write it (its parts first) or delete it: wait.
    }
    if (gone.length > 0) {
      await parts.deleteParts(collection, gone);
      for (const id of gone) watching.delete(id);
    }
    if (restored.length > 0) {
      await parts.writeParts(collection, await indexable(journal, restored, config.bots[restored[0]!.bot]!));
      for (const c of restored) watching.set(c.chunkId, c.revision);
      continue;
    }
    if (watching.size === 0) break;
    if (Date.now() > deadline) return watching.size;
    // No signal reaches reindex (its command has none to pass), so this wait is not abortable: settleMs bounds it.
    await sleep(SETTLE_POLL_MS);
  }
  return 0;
}

/**
 * The chunks to index with the payload the write path would store. A chunk whose last message was forgotten
 * between the journal reads has no payload: it is left out (its parts go when the journal drops it).
 */
async function indexable(
  journal: Journal,
  chunks: readonly PlannedChunk[],
  bot: MemoryPoolConfig['bots'][string],
): Promise<ChunkToIndex[]> {
  const toIndex: ChunkToIndex[] = [];
  // Named as the writer names them: a linked account under its person's name (docs/people.md).
  const speakers = { ...bot, people: toPeopleNames(await journal.people.list(bot.name)) };
  for (const c of chunks) {
    const messages = await journal.chunks.chunkMessages(c.chunkId);
    if (messages.length > 0)
      toIndex.push({ chunkId: c.chunkId, bot: c.bot, payload: formatChunk(messages, speakers) });
  }
  return toIndex;
}
