/**
 * @module The store half of a forget, run alone on the chunk writer: delete the points the journal marked,
 * rewrite the chunks that keep other messages, and delete by payload filter the points of a bulk selector
 * the journal does not know (an earlier journal, another memory-pool) or SillyTavern's points named by id.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { ExclusiveOps } from '../ingest/chunk-writer.js';
import type { JournalForgetResult } from '../journal/forget-journal.js';
import type { Journal } from '../journal/journal.js';
import type { PartsIndex } from '../parts/parts-index.js';
import type { PointStore, StoreCondition, StoreFilter } from '../store/point-store.js';
import {
  allOf,
  matchAny,
  matchValue,
  sourcedPoints,
  unsourcedPoints,
  unsourcedPointsAmong,
} from '../store/store-filters.js';
import { deleteCopiesElsewhere } from './delete-copies-elsewhere.js';
import type { ForgetSelector } from './forget-selector.js';
import type { ParsedForget } from './parse-forget-selector.js';
import type { UnsourcedPointMessages } from './unsourced-point-messages.js';

export interface ForgetStoreDeps {
  readonly journal: Journal;
  readonly store: PointStore;
  /** The parts index: a filter delete removes the matching parts first. */
  readonly parts?: PartsIndex | undefined;
  /** How long a forget waits for live write claims on its chunks (default CLAIM_WAIT_MS; tests shorten it). */
  readonly claimWaitMs?: number;
}

/**
 * How long a forget waits for another writer (a replica) to finish the chunks it claimed before answering.
 * Past it, the answer is a 200: the delete is due and runs once the claim goes, and the tombstones already
 * hide the text from recall.
 */
const CLAIM_WAIT_MS = 5_000;
/** How often the wait looks again at the claimed deletes. */
const CLAIM_POLL_MS = 100;

export interface StoreForgetResult {
  /** Points deleted by a payload filter (the journal counts the points it knew). */
  readonly pointsDeletedByFilter: number;
  /** The store could not be reached: the journal's deletes wait in the background. */
  readonly pending: boolean;
  /**
   * Deletes or rewrites still wait for another writer's live claim (the store is up): they run in the background,
   * so recall may not show the result yet.
   */
  readonly claimed: boolean;
}

/** Runs inside the writer's exclusive section (`ops`), after the journal step gave `journal`. */
export async function forgetInStore(
  deps: ForgetStoreDeps,
  ops: ExclusiveOps,
  target: { readonly bot: string; readonly collection: string },
  parsed: ParsedForget,
  journal: JournalForgetResult | undefined,
  sources: readonly string[] | undefined,
  held?: UnsourcedPointMessages,
): Promise<StoreForgetResult> {
  if (parsed.kind === 'unsourced') {
    const deleted = await deleteByFilter(deps, target.collection, unsourcedPoints());
    return { pointsDeletedByFilter: deleted, pending: false, claimed: false };
  }
  await deps.journal.chunks.makeDeletionsDue(target.bot);
  const waiting = await deleteDueWaitingForClaims(deps, ops, target.bot);
  if (waiting === 'store' || !journal)
    return { pointsDeletedByFilter: 0, pending: waiting === 'store', claimed: waiting === 'claims' };
  // Rewritten here, except the chunks another replica claimed first (review s25 finding 1): those are waited for
  // as claimed deletes are, and past the wait the answer says `claimed`, since recall may not see them yet.
  const notClaimed = await ops.writeChunks(journal.chunkIds);
  const rewritesDone = await rewrittenElsewhereInTime(deps, notClaimed);
  // The bot may read a copy the journal does not record (a snapshot restored beside its collection): gone too.
  const copies = await deleteCopiesElsewhere(deps, target.collection, journal.chunkIds);
  const filter =
    parsed.kind === 'unsourced-points' || parsed.kind === 'person'
      ? heldPointsFilter(held)
      : storeFilterFor(parsed.selector, sources);
  const deleted = filter ? await deleteByFilter(deps, target.collection, filter) : 0;
  return {
    pointsDeletedByFilter: deleted + copies,
    pending: false,
    claimed: waiting === 'claims' || !rewritesDone,
  };
}

/**
 * Waits (as long as for claimed deletes) until each of `chunkIds` is stored or gone from the journal (it lost every
 * message); true when none is left waiting for another writer's rewrite.
 */
async function rewrittenElsewhereInTime(
  deps: ForgetStoreDeps,
  chunkIds: readonly string[],
): Promise<boolean> {
  let waiting = chunkIds;
  const done = await withinClaimWait(deps, async () => {
    const stored = new Set((await deps.journal.chunks.storedAmong(waiting)).map((chunk) => chunk.chunkId));
    const left: string[] = [];
    for (const id of waiting) if (!stored.has(id) && (await deps.journal.chunks.hasChunk(id))) left.push(id);
    waiting = left;
    return left.length === 0 ? true : undefined;
  });
  return done ?? false;
}

/**
 * Runs the due deletes of `bot` until none waits ('none'), one waits with no live claim (the store failed
 * it: 'store'), or only claimed ones wait past the claim wait ('claims'). A claimed chunk is being written by
 * another holder, whose write may land after a delete: its delete waits for the claim, not for the store.
 */
async function deleteDueWaitingForClaims(
  deps: ForgetStoreDeps,
  ops: ExclusiveOps,
  bot: string,
): Promise<'none' | 'store' | 'claims'> {
  const settled = await withinClaimWait(deps, async () => {
    // Claims are judged as of before the deletes ran: one that expired meanwhile was skipped for its claim.
    const before = Date.now();
    await ops.deleteDueChunks();
    if (!(await deps.journal.chunks.hasPendingDeletions(bot))) return 'none';
    if (await deps.journal.chunks.hasUnclaimedDeletions(bot, before)) return 'store';
    return undefined;
  });
  return settled ?? 'claims';
}

/**
 * Runs `attempt` until it gives an answer, every CLAIM_POLL_MS for as long as a forget waits for other writers'
 * claims; undefined when the wait ran out first.
 */
async function withinClaimWait<T>(
  deps: ForgetStoreDeps,
  attempt: () => Promise<T | undefined>,
): Promise<T | undefined> {
  const deadline = Date.now() + (deps.claimWaitMs ?? CLAIM_WAIT_MS);
  for (;;) {
    const answer = await attempt();
    if (answer !== undefined) return answer;
    if (Date.now() >= deadline) return undefined;
    await sleep(CLAIM_POLL_MS);
  }
}

/** SillyTavern's points a `point_ids` forget found (a point given a source since is not matched); none if none. */
function heldPointsFilter(held: UnsourcedPointMessages | undefined): StoreFilter | undefined {
  return held && held.pointIds.length > 0 ? unsourcedPointsAmong(held.pointIds) : undefined;
}

/** The payload filter of a bulk selector, for points the journal does not know; none for ids and users. */
function storeFilterFor(
  selector: ForgetSelector,
  sources: readonly string[] | undefined,
): StoreFilter | undefined {
  let named: StoreCondition;
  if (selector.kind === 'source') named = matchValue('source', selector.source);
  else if (selector.kind === 'channel') named = matchValue('channelId', selector.channelId);
  else if (selector.kind === 'guild') named = matchValue('guildId', selector.guildId);
  else return undefined;
  // Never touches unsourced (SillyTavern) points: a bulk forget always requires a source to be present.
  return allOf(named, sources ? matchAny('source', sources) : sourcedPoints());
}

async function deleteByFilter(
  deps: ForgetStoreDeps,
  collection: string,
  filter: StoreFilter,
): Promise<number> {
  const { store } = deps;
  // Parts first: a part never outlives the chunk whose message it holds.
  await deps.parts?.deleteMatching(collection, filter);
  const count = await store.countPoints(collection, filter);
  if (count > 0) await store.deletePoints(collection, { filter });
  // During a reembed the collection being built must lose them too (SillyTavern's points included).
  const follower = await deps.journal.routes.followerOf(collection);
  if (follower !== undefined && (await store.describeCollection(follower)) !== undefined) {
    await deps.parts?.deleteMatching(follower, filter);
    await store.deletePoints(follower, { filter });
  }
  return count;
}
