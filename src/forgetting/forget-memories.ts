/**
 * @module `POST /forget`'s work. The journal forgets first (tombstones, pending messages dropped, chunks
 * marked); then, alone on the chunk writer, the marked points are deleted, chunks that keep other messages
 * are rewritten, and a filter delete catches points of a bulk selector the journal does not know (an
 * earlier journal, another memory-pool). Every forget is audited.
 */
import type { ForgetRequest, ForgetResponse } from '../wire/forget-request.js';
import type { BotConfig } from '../config/config-types.js';
import { AuthError, StoreError } from '../errors/memory-pool-error.js';
import type { Principal } from '../auth/api-key-auth.js';
import type { MessageJournal } from '../journal/message-journal.js';
import type { ExclusiveOps } from '../ingest/chunk-writer.js';
import type { PartsIndex } from '../parts/parts-index.js';
import type { PointStore, StoreFilter } from '../store/point-store.js';
import { type ForgetSelector, findForgetTargets } from './forget-selector.js';
import { parseForgetSelector } from './parse-forget-selector.js';

export interface ForgetDeps {
  readonly journal: MessageJournal;
  readonly store: PointStore;
  /** The parts index: a filter delete removes the matching parts first. */
  readonly parts?: PartsIndex;
  /** Runs the forget alone on the chunk writer: no write of old text, and no new write, can interleave. */
  runExclusive<T>(task: (ops: ExclusiveOps) => Promise<T>): Promise<T>;
  /** Asks the chunk writer to rewrite the chunks that kept other messages. */
  wakeWriter(): void;
}

/** The payload filter of a bulk selector, for points the journal does not know; none for ids and users. */
function storeFilterFor(
  selector: ForgetSelector,
  sources: readonly string[] | undefined,
): StoreFilter | undefined {
  const match = (key: string, value: string) => ({ key, match: { value } });
  const must: object[] = [];
  if (selector.kind === 'source') must.push(match('source', selector.source));
  else if (selector.kind === 'channel') must.push(match('channelId', selector.channelId));
  else if (selector.kind === 'guild') must.push(match('guildId', selector.guildId));
  else return undefined;
  // Never touches unsourced (SillyTavern) points: a bulk forget always requires a source to be present.
  must.push(
    sources
      ? { key: 'source', match: { any: [...sources] } }
      : { must_not: [{ is_empty: { key: 'source' } }] },
  );
  return { must };
}

async function deleteByFilter(deps: ForgetDeps, collection: string, filter: StoreFilter): Promise<number> {
  const { store } = deps;
  // Parts first: a part never outlives the chunk whose message it holds.
  await deps.parts?.deleteMatching(collection, filter);
  const count = await store.countPoints(collection, filter);
  if (count > 0) await store.deletePoints(collection, { filter });
  return count;
}

/** Forgets what the request names in `bot`'s memory; throws 400/403 before touching anything. */
export async function forgetMemories(
  deps: ForgetDeps,
  bot: BotConfig,
  request: ForgetRequest,
  principal: Principal,
): Promise<ForgetResponse> {
  const parsed = parseForgetSelector(request);
  const key = principal.kind === 'key' ? principal.key : undefined;
  const sources = key && key.sources !== '*' ? key.sources : undefined;
  const actor = key?.name ?? 'open';
  if (parsed.kind === 'unsourced' && key && !key.scopes.includes('admin')) {
    throw new AuthError(
      'forbidden',
      `the API key "${actor}" needs the admin scope to forget points without a source`,
    );
  }
  if (
    parsed.kind === 'journal' &&
    parsed.selector.kind === 'source' &&
    sources &&
    !sources.includes(parsed.selector.source)
  ) {
    throw new AuthError(
      'forbidden',
      `the API key "${actor}" may not act for the source "${parsed.selector.source}"`,
    );
  }
  const result = { points_deleted: 0, points_rewritten: 0, pending_dropped: 0, messages_forgotten: 0 };
  let storePending = false;
  const selectorFields = Object.fromEntries(
    Object.entries(request).filter(([field, value]) => field !== 'bot' && value !== undefined),
  );
  // The journal forgets at once, in one transaction: whatever is saved after this line is not forgotten.
  const journal =
    parsed.kind === 'journal'
      ? deps.journal.forgetting.forgetMessages(
          bot.name,
          findForgetTargets(deps.journal, bot.name, parsed.selector, sources),
          Date.now(),
          sources,
        )
      : undefined;
  if (journal) {
    result.points_deleted = journal.pointsDeleted;
    result.points_rewritten = journal.pointsRewritten;
    result.pending_dropped = journal.pendingDropped;
    result.messages_forgotten = journal.messagesForgotten;
  }
  try {
    // The store work runs alone on the chunk writer: after any write of the old text still in flight, and
    // before any chunk of a message saved after the journal step can be written (so the filter delete below
    // cannot reach it).
    await deps.runExclusive(async (ops) => {
      if (parsed.kind === 'unsourced') {
        result.points_deleted = await deleteByFilter(deps, bot.collection, {
          must: [{ is_empty: { key: 'source' } }],
        });
        return;
      }
      deps.journal.chunks.makeDeletionsDue(bot.name);
      await ops.deleteDueChunks();
      storePending = deps.journal.chunks.hasPendingDeletions(bot.name);
      if (storePending || !journal) return;
      // Rewritten before the answer, so what the answer counts is what recall now sees.
      await ops.writeChunks(journal.chunkIds);
      const filter = storeFilterFor(parsed.selector, sources);
      if (filter) result.points_deleted += await deleteByFilter(deps, bot.collection, filter);
    });
  } finally {
    // Audited even when the store failed half-way: the journal part (tombstones) has happened.
    deps.journal.forgetting.recordAudit({
      at: Date.now(),
      actor,
      bot: bot.name,
      selector: selectorFields,
      result,
    });
    deps.wakeWriter();
  }
  // The tombstones are acknowledged below: on disk first.
  await deps.journal.flush();
  if (storePending) {
    throw new StoreError(
      'store_unavailable',
      'the forget is recorded: nothing forgotten comes back, and the points memory-pool wrote for those messages are ' +
        'deleted in the background once the store answers. Repeat the request then to finish it (a bulk selector also ' +
        'deletes matching points the journal does not know, which only a repeat does).',
      { retryable: true },
    );
  }
  return { ok: true, ...result };
}
