/**
 * @module Privacy scopes for recall: a Qdrant filter that keeps memories where they belong, applied to
 * every point whoever wrote it (memory-pool marks DMs with `isDm`; SillyTavern's points have no place at all
 * and count as neutral: no guild, no channel, not a DM).
 */
import { DM_WITH_KEY } from '../chunking/dm-with.js';
import type { RecallScope } from '../config/config-types.js';
import type { StoreCondition, StoreFilter } from '../store/point-store.js';
import {
  allOf,
  anyOf,
  combineConditions,
  isEmpty,
  matchAny,
  matchValue,
  noneOf,
} from '../store/store-filters.js';

/** Where a recall request comes from. */
export interface RecallContext {
  readonly guildId?: string;
  readonly channelId?: string;
  /** Inferred when absent: a channel without a guild is a DM (Discord's shape). */
  readonly isDm?: boolean;
  /**
   * Asked in a DM by a linked person (docs/people.md): that person's DMs on every platform, which the DM scopes
   * count as this DM. Undefined (nobody linked) leaves every filter exactly as before.
   */
  readonly personDms?: readonly { readonly source: string; readonly channelId: string }[];
  /**
   * With `personDms`: the `dmWith` values that are that person's (chunking/dm-with.ts), set only when the points'
   * values can be trusted (no rename of the bot left). A point carrying one is theirs wherever it was written;
   * `personDms` then only reaches the points with no `dmWith` (written before the field, or unsure who).
   */
  readonly personDmWith?: readonly string[];
}

const isDmPoint = matchValue('isDm', true);
const notDm = noneOf(isDmPoint);

/** What a request may add to the bot's scope; every field only removes points. */
export interface RecallNarrowing {
  readonly scope?: RecallScope;
  readonly sources?: readonly string[];
  /**
   * The channels (and threads) of the context's guild the asker may read: that guild's points are kept only
   * from these, so a channel the caller could not vouch for (unknown, deleted, private) stays out.
   */
  readonly readableChannelIds?: readonly string[];
}

/**
 * The filter of one recall: the bot's scope AND the scope the request asks for AND its sources AND, for the
 * guild asked in, only its readable channels. Each part only removes points, so a request can narrow the
 * bot's scope but never widen it.
 */
export function buildRecallFilter(
  botScope: RecallScope,
  context: RecallContext,
  narrowing: RecallNarrowing = {},
): StoreFilter | undefined {
  const parts = [buildScopeFilter(botScope, context)];
  if (narrowing.scope !== undefined) parts.push(buildScopeFilter(narrowing.scope, context));
  if (narrowing.sources !== undefined) parts.push(allOf(matchAny('source', narrowing.sources)));
  if (narrowing.readableChannelIds !== undefined) {
    parts.push(readableInGuild(context.guildId, narrowing.readableChannelIds));
  }
  const must = parts.filter((part): part is StoreFilter => part !== undefined);
  if (must.length === 0) return undefined;
  return must.length === 1 ? must[0] : allOf(...must);
}

/** The filter for `scope` seen from `context`; undefined = no filter. */
export function buildScopeFilter(scope: RecallScope, context: RecallContext): StoreFilter | undefined {
  const isDm = context.isDm ?? (context.channelId !== undefined && context.guildId === undefined);
  const sameChannel =
    context.channelId === undefined ? undefined : matchValue('channelId', context.channelId);
  // This DM matched by its channel alone, as before people existed (a DM imported under another source, e.g.
  // `import`, stays recalled there); a linked person's other DMs each only in the source that saved them.
  const personDms = isDm ? (context.personDms ?? []) : [];
  const personMatches = matchPersonDms(personDms, isDm ? context.personDmWith : undefined);
  const ownDms =
    sameChannel === undefined || personMatches.length === 0
      ? sameChannel
      : anyOf(sameChannel, ...personMatches);
  const thisDm = ownDms === undefined ? undefined : allOf(isDmPoint, ownDms);
  const must: StoreCondition[] = [];
  const mustNot: StoreCondition[] = [];
  switch (scope) {
    case 'global':
      break;
    case 'dm-private':
      // DM memories stay in their own DM; everything else is shared.
      if (isDm && ownDms !== undefined) {
        mustNot.push(allOf(isDmPoint, noneOf(ownDms)));
      } else {
        mustNot.push(isDmPoint);
      }
      break;
    case 'guild': {
      const neutral = allOf(isEmpty('guildId'), notDm);
      const own =
        context.guildId !== undefined ? matchValue('guildId', context.guildId) : isDm ? thisDm : undefined;
      must.push(own ? anyOf(own, neutral) : neutral);
      break;
    }
    case 'channel': {
      // A point of no channel is shared, unless it belongs to another server (a save naming only its guild).
      const ownGuildOrNone =
        context.guildId === undefined
          ? isEmpty('guildId')
          : anyOf(isEmpty('guildId'), matchValue('guildId', context.guildId));
      const neutral = allOf(isEmpty('channelId'), notDm, ownGuildOrNone);
      const own = isDm ? ownDms : sameChannel;
      must.push(own ? anyOf(own, neutral) : neutral);
      break;
    }
  }
  return combineConditions(must, mustNot);
}

/**
 * A linked person's other DMs: by `dmWith` when trusted, plus the journal's channels for points with none; by the
 * journal's channels alone otherwise (as before the field existed).
 */
function matchPersonDms(
  channels: NonNullable<RecallContext['personDms']>,
  dmWith: readonly string[] | undefined,
): StoreCondition[] {
  const byChannel = channels.map((dm) =>
    allOf(matchValue('source', dm.source), matchValue('channelId', dm.channelId)),
  );
  if (dmWith === undefined || dmWith.length === 0) return byChannel;
  const byField = matchAny(DM_WITH_KEY, dmWith);
  return byChannel.length === 0 ? [byField] : [byField, allOf(isEmpty(DM_WITH_KEY), anyOf(...byChannel))];
}

/**
 * Points of `guildId` only from `channelIds` (blank ids name none; an empty list keeps none of that guild);
 * points of no guild or another guild are left to the scope. Without a guild, nothing is readable by this rule.
 */
function readableInGuild(guildId: string | undefined, channelIds: readonly string[]): StoreFilter {
  if (guildId === undefined) return allOf(isEmpty('guildId'));
  const readable = channelIds.map((id) => id.trim()).filter((id) => id !== '');
  const thisGuild = matchValue('guildId', guildId);
  return readable.length === 0
    ? noneOf(thisGuild)
    : noneOf(allOf(thisGuild, noneOf(matchAny('channelId', readable))));
}
