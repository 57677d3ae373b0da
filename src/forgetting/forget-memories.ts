/**
 * @module `POST /forget`'s work. The journal forgets first (tombstones, pending messages dropped, chunks
 * marked), then one chunk-writer pass deletes the points and rewrites chunks that keep other messages, then
 * a filter delete in the store catches points of a bulk selector the journal does not know (written by an
 * earlier journal or another memory-pool). Every forget is audited.
 */
import type { ForgetRequest, ForgetResponse } from '../api/forget-request.js';
import type { BotConfig } from '../config/config-types.js';
import { AuthError, StoreError } from '../errors/memory-pool-error.js';
import type { Principal } from '../http/auth/api-key-auth.js';
import type { ForgetSelector } from '../journal/forget-journal.js';
import type { MessageJournal } from '../journal/message-journal.js';
import type { PointStore, StoreFilter } from '../store/point-store.js';
import { type ParsedForget, parseForgetSelector } from './parse-forget-selector.js';

export interface ForgetDeps {
  readonly journal: MessageJournal;
  readonly store: PointStore;
  /** Runs one chunk-writer pass after any in progress (so no write of the old text can land after it). */
  runWriterPass(): Promise<unknown>;
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

async function deleteByFilter(store: PointStore, collection: string, filter: StoreFilter): Promise<number> {
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
  const parsed: ParsedForget = parseForgetSelector(request);
  const key = principal.kind === 'key' ? principal.key : undefined;
  const sources = key && key.sources !== '*' ? key.sources : undefined;
  const actor = key?.name ?? 'open';
  let result: Omit<ForgetResponse, 'ok'>;
  let storePending = false;

  if (parsed.kind === 'unsourced') {
    if (key && !key.scopes.includes('admin')) {
      throw new AuthError(
        'forbidden',
        `the API key "${key.name}" needs the admin scope to forget points without a source`,
      );
    }
    const deleted = await deleteByFilter(deps.store, bot.collection, {
      must: [{ is_empty: { key: 'source' } }],
    });
    result = { points_deleted: deleted, points_rewritten: 0, pending_dropped: 0, messages_forgotten: 0 };
  } else {
    const { selector } = parsed;
    if (selector.kind === 'source' && sources && !sources.includes(selector.source)) {
      throw new AuthError(
        'forbidden',
        `the API key "${actor}" may not act for the source "${selector.source}"`,
      );
    }
    const forgetting = deps.journal.forgetting;
    const ids = forgetting.selectMessageIds(bot.name, selector, sources);
    const journal = forgetting.forgetMessages(bot.name, ids, Date.now());
    await deps.runWriterPass();
    storePending = deps.journal.hasDueDeletions(bot.name);
    const filter = storeFilterFor(selector, sources);
    const extra = filter && !storePending ? await deleteByFilter(deps.store, bot.collection, filter) : 0;
    result = {
      points_deleted: journal.pointsDeleted + extra,
      points_rewritten: journal.pointsRewritten,
      pending_dropped: journal.pendingDropped,
      messages_forgotten: journal.messagesForgotten,
    };
  }
  const selector = Object.fromEntries(
    Object.entries(request).filter(([field, value]) => field !== 'bot' && value !== undefined),
  );
  deps.journal.forgetting.recordAudit({ at: Date.now(), actor, bot: bot.name, selector, result });
  if (storePending) {
    throw new StoreError(
      'store_unavailable',
      'the forget is recorded (nothing forgotten will come back), but the store could not delete the points yet; ' +
        'it keeps retrying in the background. Repeat the request later to confirm.',
      { retryable: true },
    );
  }
  return { ok: true, ...result };
}
