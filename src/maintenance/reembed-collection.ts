/**
 * @module `memory-pool reembed`: moves a bot's memory to a new embedding model without losing any of it.
 * build: the journal records the reembed (so a running serve writes what it stores to both collections),
 * a new collection is filled from the chunk texts while the service keeps answering from the old one, then
 * switched to in one journal transaction, which serve follows without a restart; rollback: the same, back
 * to the previous collection; drop-old: deletes the previous collection and points its name at the new one
 * (an alias), for SillyTavern and anything else that addresses the collection by name.
 */
import type { BotConfig, MemoryPoolConfig } from '../config/config-types.js';
import type { Embedder } from '../embedding/embedder.js';
import { ValidationError } from '../errors/memory-pool-error.js';
import { type LeaseGuard, runUnderLease, UNLEASED } from '../journal/hold-lease.js';
import type { Journal } from '../journal/journal.js';
import type { HybridPointStore } from '../store/hybrid-point-store.js';
import type { TimelineStore } from '../store/timeline-store.js';
import type { PointStore } from '../store/point-store.js';
import type { StoreAdmin } from '../store/store-admin.js';
import { partsCollectionName } from '../parts/parts-collection-name.js';
import { reembedTargetName } from './reembed-target.js';
import { describeModel, sameModel } from '../config/same-model.js';
import { type SyncResult, syncCollection } from './sync-collection.js';
import { type PartsSyncResult, syncParts } from './sync-parts.js';
import { countNoun } from '../runtime/count-noun.js';

export type ReembedAction = 'build' | 'rollback' | 'drop-old';

export interface ReembedDeps {
  readonly store: PointStore &
    HybridPointStore &
    Pick<TimelineStore, 'requestFloatIndex' | 'requestKeywordIndex'>;
  readonly admin: StoreAdmin;
  readonly journal: Journal;
  /** The model to move to (for a rollback: the previous collection's model). */
  readonly embedder: Embedder;
  /** Its `embedding:` section as written (JSON, `${VAR}` unexpanded), recorded for serve. */
  readonly embedding: string;
  /** The configured bots: those sharing the collection have their chunks' parts built too. */
  readonly bots: MemoryPoolConfig['bots'];
  readonly now?: () => number;
}

export interface ReembedRequest {
  readonly bot: BotConfig;
  readonly action: ReembedAction;
  readonly dryRun: boolean;
  /** Whether `memory-pool serve` answers (drop-old waits for it to stop: it may still hold the old collection). */
  readonly serveRunning: boolean;
  /** Called as each pass advances (the chunk passes, then the parts pass). */
  readonly onProgress?: (done: number, total: number) => void;
  /** Rebuild even when the collection in use has the model already (the recall benchmark measures that). */
  readonly rebuild?: boolean;
  /** How long a chunk serve rewrites during the parts pass may take to settle (default 30 s). */
  readonly settleMs?: number;
}

export interface ReembedSummary {
  readonly bot: string;
  readonly action: ReembedAction;
  readonly from: string;
  readonly to: string;
  readonly sync?: SyncResult;
  /** The parts index built for `to` (recall's passages), embedded with the same model. */
  readonly parts?: PartsSyncResult;
  /** True when the bot now uses `to`. */
  readonly switched: boolean;
  /** Why the switch did not happen, and what to do. */
  readonly pending?: string;
  /** The collection deleted by drop-old. */
  readonly dropped?: string;
  readonly dryRun: boolean;
}

const STOP_SERVE =
  'stop `memory-pool serve` (a request that began before the switch may still read it) and run the same command again';

/**
 * Runs one reembed action; refusals are ValidationErrors naming the option and the fix. Two reembeds of one
 * bot never run at once, from any machine: each holds the lease `reembed:<collection>` (a dry run needs none).
 */
export async function reembedCollection(deps: ReembedDeps, request: ReembedRequest): Promise<ReembedSummary> {
  if (request.dryRun) return reembedLeased(deps, request, UNLEASED);
  const lease = {
    name: `reembed:${request.bot.collection}`,
    what: `memory-pool reembed of bot ${request.bot.name}`,
    field: '--bot',
  };
  return runUnderLease(deps.journal.leases, lease, (guard) => reembedLeased(deps, request, guard));
}

/** The reembed itself; `guard` is asked before each irreversible step (another pass may have the lease by then). */
async function reembedLeased(
  deps: ReembedDeps,
  request: ReembedRequest,
  guard: LeaseGuard,
): Promise<ReembedSummary> {
  if (request.action === 'drop-old') return dropOld(deps, request, guard);
  const { journal, embedder } = deps;
  const configured = request.bot.collection;
  const active = await journal.routes.activeCollection(configured);
  const route = await journal.routes.routeOf(configured);
  let target: string;
  if (request.action === 'rollback') {
    if (route?.previous === undefined) {
      throw new ValidationError(
        '--rollback',
        `bot ${request.bot.name} has no previous collection to switch back to (never switched, or --drop-old deleted it).`,
      );
    }
    target = route.previous;
    const recorded = await journal.collectionModel(target);
    if (recorded !== undefined && !sameModel(recorded, embedder)) {
      throw new ValidationError(
        '--to',
        `${target} was built with ${describeModel(recorded)}, but the embedding given is ${describeModel(embedder)}: pass --to a file with that model's embedding settings (or leave --to out when the config has them).`,
      );
    }
  } else {
    const dimensions = embedder.dimensions ?? (await embedder.embed(['dimension probe']))[0]!.length;
    const recorded = await journal.collectionModel(active);
    target = reembedTargetName(configured, embedder.model, dimensions);
    const current = recorded !== undefined && sameModel(recorded, { model: embedder.model, dimensions });
    // A rebuild to the same model still needs a collection other than the one in use to build into.
    if (current && (request.rebuild !== true || target === active)) {
      return {
        bot: request.bot.name,
        action: request.action,
        from: active,
        to: active,
        switched: true,
        dryRun: request.dryRun,
      };
    }
  }
  if (request.action === 'build') await leaveNoCollectionBehind(deps, request, target, guard);
  const base = {
    bot: request.bot.name,
    action: request.action,
    from: active,
    to: target,
    dryRun: request.dryRun,
  };
  const now = deps.now ?? Date.now;
  const progress = request.onProgress ? { onProgress: request.onProgress } : {};
  if (!request.dryRun) {
    await guard.ensureHeld(`recording the reembed into ${target}`);
    // Incomplete first: serve's first follower write may create the parts collection while `target` is still
    // empty, which would otherwise record it complete before its parts pass ran.
    await journal.partsIndexes.markIncomplete(target, now());
    // From this commit on, serve writes what it stores in `active` to `target` too (chunks and parts); the
    // passes below copy what was stored before, so after the last one nothing stored is missing from `target`.
    await journal.routes.beginReembed(configured, active, target, deps.embedding, now());
  }
  const passes = { from: active, to: target, dryRun: request.dryRun };
  const partsRequest = {
    ...passes,
    configured,
    ...(request.settleMs === undefined ? {} : { settleMs: request.settleMs }),
  };
  let sync = await syncCollection(deps, { ...passes, ...progress });
  let parts = await syncParts(deps, { ...partsRequest, ...progress });
  // The parts pass may take minutes: edits and SillyTavern writes reaching `active` meanwhile are taken by one
  // more settled chunk pass (then the parts of what it changed); the switch follows a chunk pass with none.
  // Past MAX_FINAL_ROUNDS it follows the last parts pass: saves, forgets and viewer edits reach both collections
  // by then, so only SillyTavern's own writes during that pass stay in `active`, as after a switch (docs/importing-and-moving-data.md).
  for (let round = 1; !request.dryRun && sync.settled; round += 1) {
    const last = await syncCollection(deps, passes);
    sync = mergeSync(sync, last);
    if (!last.settled || last.embedded + last.deleted === 0) break;
    parts = await syncParts(deps, partsRequest);
    if (round >= MAX_FINAL_ROUNDS) break;
  }
  const pending = whyNotSwitch(sync, parts, target, request);
  if (pending !== undefined) return { ...base, sync, parts, switched: false, pending };
  await guard.ensureHeld(`the switch to ${target}`);
  await journal.routes.switchTo(configured, target, now());
  return { ...base, sync, parts, switched: true };
}

/**
 * A build may not strand a collection memory-pool stops tracking (it would keep forgotten texts for good): the
 * previous collection of the last switch (it receives no forgets) must be dropped or rolled back to first, and a
 * build stopped before its switch into another collection is finished, or abandoned with serve stopped (so no
 * follower write recreates it): then its collection and parts are deleted.
 */
async function leaveNoCollectionBehind(
  deps: ReembedDeps,
  request: ReembedRequest,
  target: string,
  guard: LeaseGuard,
) {
  const { journal, admin } = deps;
  const configured = request.bot.collection;
  const previous = (await journal.routes.routeOf(configured))?.previous;
  const stopped = await journal.routes.reembedOf(configured);
  if (previous !== undefined && previous !== target) {
    const rerun = stopped?.target === previous ? 'run the stopped --rollback again, or ' : '';
    throw new ValidationError(
      '--to',
      `bot ${request.bot.name} still keeps ${previous}, the collection it used before its last switch (it receives no forgets, so a new build would leave it behind with them): ${rerun}run --drop-old (or --rollback) first, then build again.`,
    );
  }
  if (stopped === undefined || stopped.target === target) return;
  if (request.serveRunning) {
    throw new ValidationError(
      '--to',
      `a reembed of bot ${request.bot.name} into ${stopped.target} was stopped before its switch: finish it (run it again with the same --to), or ${STOP_SERVE} to abandon it (its collection is deleted).`,
    );
  }
  if (request.dryRun || stopped.target === (await journal.routes.activeCollection(configured))) return;
  await guard.ensureHeld(`deleting ${stopped.target}`);
  await admin.deleteCollection(stopped.target);
  await admin.deleteCollection(partsCollectionName(stopped.target));
  await journal.partsIndexes.forget(stopped.target);
}

/** Chunk passes (each followed by a parts pass when it changed something) run after the first parts pass. */
const MAX_FINAL_ROUNDS = 3;

function mergeSync(
  first: SyncResult & { settled: boolean },
  next: SyncResult & { settled: boolean },
): SyncResult & { settled: boolean } {
  return {
    points: next.points,
    embedded: first.embedded + next.embedded,
    deleted: first.deleted + next.deleted,
    withoutText: next.withoutText,
    passes: first.passes + next.passes,
    settled: next.settled,
  };
}

function whyNotSwitch(
  sync: SyncResult & { settled: boolean },
  parts: PartsSyncResult,
  target: string,
  request: ReembedRequest,
): string | undefined {
  if (request.dryRun) return 'dry run: nothing written';
  if (sync.withoutText.length > 0) {
    return `${countNoun(sync.withoutText.length, 'point')} ${sync.withoutText.length === 1 ? 'has' : 'have'} no text to embed (e.g. ${String(sync.withoutText[0])}): delete or fix them in the old collection, then run again`;
  }
  if (!sync.settled) return 'writes kept arriving through every pass: run again when the service is quieter';
  // Recall would fall back to chunk-only on the new collection: the switch waits for a complete parts index.
  if (!parts.complete) {
    return `the parts index of ${target} is half-built (${countNoun(parts.unsettled, 'chunk')} serve kept rewriting did not settle), so recall would fall back to chunk-only: run the same command again to finish it`;
  }
  return undefined;
}

async function dropOld(
  deps: ReembedDeps,
  request: ReembedRequest,
  guard: LeaseGuard,
): Promise<ReembedSummary> {
  const { journal, admin } = deps;
  const configured = request.bot.collection;
  const route = await journal.routes.routeOf(configured);
  const active = await journal.routes.activeCollection(configured);
  if (route?.previous === undefined || route.previous === active) {
    throw new ValidationError(
      '--drop-old',
      `bot ${request.bot.name} has no previous collection to drop (never switched, or already dropped).`,
    );
  }
  const old = route.previous;
  // A rollback (or build) stopped midway is writing into a collection drop-old would delete or re-alias.
  const building = await journal.routes.reembedOf(configured);
  if (building !== undefined) {
    throw new ValidationError(
      '--drop-old',
      `a reembed of bot ${request.bot.name} into ${building.target} was stopped before its switch: finish it first (run the same --rollback, or the build with the same --to, again), then --drop-old.`,
    );
  }
  const base = {
    bot: request.bot.name,
    action: request.action,
    from: old,
    to: active,
    switched: true,
    dryRun: request.dryRun,
  };
  if (request.dryRun) return { ...base, pending: `dry run: would delete ${old}`, dropped: old };
  if (request.serveRunning)
    throw new ValidationError('--drop-old', `serve may still use ${old}: ${STOP_SERVE}.`);
  const aliased = (await admin.listAliases()).some((a) => a.alias === configured);
  await guard.ensureHeld(`deleting ${old}`);
  // The configured name stays reachable: SillyTavern keeps addressing the collection by it.
  if (old === configured) {
    await admin.deleteCollection(old);
    await admin.setAlias(configured, active);
  } else {
    if (aliased) await admin.setAlias(configured, active);
    await admin.deleteCollection(old);
  }
  // A deleted collection leaves no parts behind, nor a record that would make a new one under the name complete.
  await admin.deleteCollection(partsCollectionName(old));
  await journal.partsIndexes.forget(old);
  await journal.routes.forgetPrevious(configured);
  return { ...base, dropped: old };
}
