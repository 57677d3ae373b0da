/**
 * @module A reembed's parts pass: builds the parts index of the collection it is about to switch to, embedded
 * with that collection's model, from the chunks the journal has stored in the collection in use, so recall
 * answers in the same mode right after the switch. Resumable like the chunk passes: parts already exactly
 * what the write path builds are kept, so a stopped run only does what is left.
 */
import type { MemoryPoolConfig } from '../config/config-types.js';
import type { Embedder } from '../embedding/embedder.js';
import type { Journal } from '../journal/journal.js';
import { partsCollectionName } from '../parts/parts-collection-name.js';
import { createPartsGuard } from '../parts/parts-guard.js';
import { PartsIndex, partsOfChunks } from '../parts/parts-index.js';
import { reindexParts } from '../parts/reindex-parts.js';
import type { HybridPointStore } from '../store/hybrid-point-store.js';
import type { TimelineStore } from '../store/timeline-store.js';
import type { PointStore } from '../store/point-store.js';
import { PARTS_INDEXES, prepareServiceIndexesBeforeWrites } from '../store/service-indexes.js';
import { sourcedPoints } from '../store/store-filters.js';

export interface PartsSyncDeps {
  readonly store: PointStore &
    HybridPointStore &
    Pick<TimelineStore, 'requestFloatIndex' | 'requestKeywordIndex'>;
  readonly journal: Journal;
  /** The model of `to`. */
  readonly embedder: Embedder;
  readonly bots: MemoryPoolConfig['bots'];
}

export interface PartsSyncRequest {
  /** The configured collection being reembedded: the bots configured with it have their chunks indexed. */
  readonly configured: string;
  /** The collection in use, whose stored chunks are indexed. */
  readonly from: string;
  /** The collection about to be switched to: its parts are written. */
  readonly to: string;
  readonly dryRun: boolean;
  /** How long a chunk serve rewrites meanwhile may take to settle (default 30 s). */
  readonly settleMs?: number;
  readonly onProgress?: (done: number, total: number) => void;
}

export interface PartsSyncResult {
  /** Chunks memory-pool stored in `from`, per the journal. */
  readonly chunks: number;
  /** Chunks whose parts were (in a dry run: would be) written. */
  readonly built: number;
  /** Part points written (or that would be). */
  readonly parts: number;
  /** Chunks whose parts `to` already held, exactly: left as they were (a resumed run). */
  readonly upToDate: number;
  /** Chunks of parts `to` held that the journal no longer has (forgotten since): deleted (or would be). */
  readonly deleted: number;
  /** Chunks serve kept rewriting while their parts were written: a rerun finishes them. */
  readonly unsettled: number;
  /**
   * Whether the parts index of `to` is complete, so recall may use it: complete for the configured bots. The
   * chunks of `unconfigured` have no parts in it (no bot config to build them with).
   */
  readonly complete: boolean;
  /**
   * Chunks stored in `from` by bots no longer configured with the collection (removed from the config): their
   * parts are not built, and any `to` held are deleted, so hybrid recall does not find them (its chunk search
   * reads only chunks without a source); configure the bot again and run `memory-pool reindex --bot B`.
   */
  readonly unconfigured: number;
}

/** Parts read per step when looking for those of forgotten chunks. */
const PAGE = 256;

/** Builds `to`'s parts; throws on store or embedder failures (a rerun resumes). */
export async function syncParts(deps: PartsSyncDeps, request: PartsSyncRequest): Promise<PartsSyncResult> {
  const { store, journal } = deps;
  // The target's parts are filtered by dmWith once serve switches to it: indexed when created, as serve's are.
  // Best effort, as in serve: a failure costs recall the index, not the build, and serve asks again at its start.
  const afterCreate = prepareServiceIndexesBeforeWrites(store, PARTS_INDEXES, () => undefined);
  const parts = new PartsIndex({ ...deps, guard: createPartsGuard(store, journal, { afterCreate }) });
  const names = Object.values(deps.bots)
    .filter((bot) => bot.collection === request.configured)
    .map((bot) => bot.name);
  // Every bot configured with the collection writes its parts into `to` (the route is per collection).
  const bots = Object.fromEntries(
    Object.entries(deps.bots).map(([name, bot]) => [
      name,
      names.includes(name) ? { ...bot, collection: request.to } : bot,
    ]),
  );
  const deleted = await deleteForgottenParts(deps, request);
  const totals = { chunks: 0, built: 0, parts: 0, upToDate: 0, unsettled: 0 };
  for (const name of names) {
    const summary = await reindexParts({ config: { bots }, journal, store, parts }, name, {
      dryRun: request.dryRun,
      chunksIn: request.from,
      markComplete: false,
      ...(request.settleMs === undefined ? {} : { settleMs: request.settleMs }),
      ...(request.onProgress ? { onProgress: request.onProgress } : {}),
    });
    totals.chunks += summary.chunks;
    totals.built += summary.reindexed;
    totals.parts += summary.partsWritten;
    totals.upToDate += summary.upToDate;
    totals.unsettled += summary.unsettled;
  }
  const unconfigured = await findUnconfigured(deps, request.from, names);
  // They have no parts in `to`, as `complete` says: a rollback's `to` still holds theirs of before the switch,
  // which keep what was edited or forgotten since, and without their bot's config they cannot be rebuilt.
  for (let start = 0; !request.dryRun && start < unconfigured.length; start += PAGE) {
    const slice = unconfigured.slice(start, start + PAGE);
    await store.deletePoints(partsCollectionName(request.to), { filter: partsOfChunks(slice) });
  }
  if (!request.dryRun && totals.unsettled === 0)
    await journal.partsIndexes.markComplete(request.to, Date.now());
  const complete = (await journal.partsIndexes.isComplete(request.to)) === true;
  return { ...totals, deleted, complete, unconfigured: unconfigured.length };
}

/** The chunks the journal has stored in `from` for bots other than `names`: found from `from`'s own points. */
async function findUnconfigured(
  deps: PartsSyncDeps,
  from: string,
  names: readonly string[],
): Promise<string[]> {
  const { store, journal } = deps;
  if ((await store.describeCollection(from)) === undefined) return [];
  const found: string[] = [];
  let offset: Parameters<PointStore['scrollPoints']>[1]['offset'];
  do {
    const page = await store.scrollPoints(from, {
      filter: sourcedPoints(),
      limit: PAGE,
      ...(offset === undefined ? {} : { offset }),
    });
    const stored = await journal.chunks.storedAmong(page.points.map((p) => String(p.id)));
    for (const c of stored) if (c.collection === from && !names.includes(c.bot)) found.push(c.chunkId);
    offset = page.nextOffset;
  } while (offset !== undefined);
  return found;
}

/**
 * Deletes the parts `to` holds of chunks the journal no longer has: `to` may be a collection left behind by
 * an earlier switch (a rollback's), which did not follow the forgets made since. A forgotten message must not
 * come back with it.
 */
async function deleteForgottenParts(deps: PartsSyncDeps, request: PartsSyncRequest): Promise<number> {
  const { store, journal } = deps;
  const name = partsCollectionName(request.to);
  if ((await store.describeCollection(name)) === undefined) return 0;
  const gone = new Set<string>();
  let offset: Parameters<PointStore['scrollPoints']>[1]['offset'];
  do {
    const page = await store.scrollPoints(name, { limit: PAGE, ...(offset === undefined ? {} : { offset }) });
    // The page's chunk ids, each asked once, together (the port has no batched "which of these chunks exist").
    const chunkIds = [
      ...new Set(
        page.points.flatMap((p) => (typeof p.payload.chunkId === 'string' ? [p.payload.chunkId] : [])),
      ),
    ];
    const known = await Promise.all(chunkIds.map((id) => journal.chunks.hasChunk(id)));
    chunkIds.forEach((id, i) => {
      if (!known[i]) gone.add(id);
    });
    offset = page.nextOffset;
  } while (offset !== undefined);
  if (gone.size > 0 && !request.dryRun) await store.deletePoints(name, { filter: partsOfChunks([...gone]) });
  return gone.size;
}
