/**
 * @module `POST /forget`'s work, in order: parse and authorize the selector (400/403 before anything is
 * touched); the journal forgets at once (tombstones, pending messages dropped, chunks marked); then the
 * store half (forget-in-store) runs alone on the chunk writer. Every forget is audited.
 */
import type { ForgetPermissions } from '../auth/forget-permissions.js';
import type { BotConfig } from '../config/config-types.js';
import { AuthError, StoreError, ValidationError } from '../errors/memory-pool-error.js';
import type { ExclusiveOps } from '../ingest/chunk-writer.js';
import type { ForgetTarget } from '../journal/forget-journal.js';
import type { StoredPointId } from '../store/point-store.js';
import type { ForgetRequest, ForgetResponse } from '../wire/forget-request.js';
import { authorizeForget } from './authorize-forget.js';
import { type ForgetStoreDeps, forgetInStore } from './forget-in-store.js';
import { findForgetTargets } from './forget-selector.js';
import { parseForgetSelector } from './parse-forget-selector.js';
import { findPersonaPoints, findPersonTargets, sourcesOf } from './person-forget-targets.js';
import { readUnsourcedPointMessages } from './unsourced-point-messages.js';

export interface ForgetDeps extends ForgetStoreDeps {
  /** Runs the forget alone on the chunk writer: no write of old text, and no new write, can interleave. */
  runExclusive<T>(task: (ops: ExclusiveOps) => Promise<T>): Promise<T>;
  /** Asks the chunk writer to rewrite the chunks that kept other messages. */
  wakeWriter(): void;
}

/** Forgets what the request names in `bot`'s memory, within what `permissions` allow. */
export async function forgetMemories(
  deps: ForgetDeps,
  bot: BotConfig,
  request: ForgetRequest,
  permissions: ForgetPermissions,
): Promise<ForgetResponse> {
  const parsed = parseForgetSelector(request);
  authorizeForget(parsed, permissions);
  const { sources } = permissions;
  const result = { points_deleted: 0, points_rewritten: 0, pending_dropped: 0, messages_forgotten: 0 };
  let storePending = false;
  const selectorFields: Record<string, unknown> = Object.fromEntries(
    Object.entries(request).filter(([field, value]) => field !== 'bot' && value !== undefined),
  );
  const person = parsed.kind === 'person' ? await readPerson(deps, bot, parsed, permissions) : undefined;
  if (person !== undefined) Object.assign(selectorFields, person.audit);
  // SillyTavern's points named by id (or naming a person's persona): their messages are tombstoned (so an import
  // of the chat never brings them back) and forgotten wherever the journal holds them too, before the points go.
  const pointIds = parsed.kind === 'unsourced-points' ? parsed.pointIds : person?.pointIds;
  const held =
    pointIds !== undefined && pointIds.length > 0
      ? await readUnsourcedPointMessages(deps.store, bot.collection, pointIds)
      : undefined;
  // The journal forgets the targets found now (in slices that let other requests run): a message saved
  // after this line is not forgotten, and an id re-sent meanwhile meets its tombstone or is forgotten with it.
  const targets =
    parsed.kind === 'journal'
      ? await findForgetTargets(deps.journal, bot.name, parsed.selector, sources)
      : person !== undefined
        ? [...person.targets, ...(held?.messageIds.map((id) => ({ id })) ?? [])]
        : held?.messageIds.map((id) => ({ id }));
  const journal = targets
    ? await deps.journal.forgetting.forgetMessages(bot.name, targets, Date.now(), sources)
    : undefined;
  if (journal) {
    result.points_deleted = journal.pointsDeleted;
    result.points_rewritten = journal.pointsRewritten;
    result.pending_dropped = journal.pendingDropped;
    result.messages_forgotten = journal.messagesForgotten;
  }
  // The messages SillyTavern's deleted points held, beside any journal copies of them.
  if (held) result.messages_forgotten += held.messageCount;
  try {
    // Alone on the chunk writer: after any write of the old text still in flight, and before any chunk of
    // a message saved after the journal step can be written (so a filter delete cannot reach it).
    const store = await deps.runExclusive((ops) =>
      forgetInStore(deps, ops, { bot: bot.name, collection: bot.collection }, parsed, journal, sources, held),
    );
    result.points_deleted += store.pointsDeletedByFilter;
    storePending = store.pending;
  } finally {
    // Audited even when the store failed half-way: the journal part (tombstones) has happened.
    await deps.journal.forgetting.recordAudit({
      at: Date.now(),
      actor: permissions.actor,
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
        "deletes matching points the journal does not know, and SillyTavern's points named by point_ids go, which " +
        'only a repeat does).',
      { retryable: true },
    );
  }
  return { ok: true, ...result };
}

/**
 * The person a forget names, their messages and (asked with include_unsourced) SillyTavern's points naming their
 * persona; a 400 naming `person` when the bot has none of that id, a 403 naming the sources the key may not
 * forget in (a person forget reaches every source, or nothing).
 */
async function readPerson(
  deps: ForgetDeps,
  bot: BotConfig,
  parsed: { personId: string; includeUnsourced: boolean },
  permissions: ForgetPermissions,
): Promise<{ targets: ForgetTarget[]; pointIds: StoredPointId[]; audit: Record<string, unknown> }> {
  const person = await deps.journal.people.get(bot.name, parsed.personId);
  if (person === undefined) {
    throw new ValidationError(
      'person',
      `person: the bot "${bot.name}" has no person "${parsed.personId}"; GET /bots/${bot.name}/people lists them`,
    );
  }
  const targets = await findPersonTargets(deps.journal, bot.name, person);
  const allowed = permissions.sources;
  const missing =
    allowed === undefined ? [] : sourcesOf(targets).filter((source) => !allowed.includes(source));
  if (missing.length > 0) {
    throw new AuthError(
      'forbidden',
      `the API key "${permissions.actor}" may not forget in the source${missing.length > 1 ? 's' : ''} ${missing.map((s) => `"${s}"`).join(', ')}, where ${person.name} has messages; a person forget needs every source (an admin key has them all)`,
    );
  }
  const personas = person.accounts.filter((a) => a.kind === 'persona').map((a) => a.value);
  const pointIds = parsed.includeUnsourced
    ? await findPersonaPoints(deps.store, bot.collection, personas)
    : [];
  return {
    targets,
    pointIds,
    audit: {
      person_name: person.name,
      accounts: person.accounts.map((a) => (a.kind === 'persona' ? `persona:${a.value}` : a.value)),
    },
  };
}
