/**
 * @module Privacy scopes for recall: a Qdrant filter that keeps memories where they belong, applied to
 * every point whoever wrote it (memory-pool marks DMs with `isDm`; SillyTavern's points have no place at all
 * and count as neutral: no guild, no channel, not a DM).
 */
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
}

const isDmPoint = matchValue('isDm', true);
const notDm = noneOf(isDmPoint);

/** What a request may add to the bot's scope; every field only removes points. */
export interface RecallNarrowing {
  readonly scope?: RecallScope;
  readonly sources?: readonly string[];
  /** Channels (or threads) whose points are left out, e.g. those the asker may not read. */
  readonly excludeChannelIds?: readonly string[];
}

/**
 * The filter of one recall: the bot's scope AND the scope the request asks for AND its sources AND not the
 * excluded channels. Each part only removes points, so a request can narrow the bot's scope but never widen it.
 */
export function buildRecallFilter(
  botScope: RecallScope,
  context: RecallContext,
  narrowing: RecallNarrowing = {},
): StoreFilter | undefined {
  const parts = [buildScopeFilter(botScope, context)];
  if (narrowing.scope !== undefined) parts.push(buildScopeFilter(narrowing.scope, context));
  if (narrowing.sources !== undefined) parts.push(allOf(matchAny('source', narrowing.sources)));
  // Blank ids name no channel; an empty list adds no filter, so a request without it answers as before.
  const excluded = (narrowing.excludeChannelIds ?? []).map((id) => id.trim()).filter((id) => id !== '');
  if (excluded.length > 0) parts.push(noneOf(matchAny('channelId', excluded)));
  const must = parts.filter((part): part is StoreFilter => part !== undefined);
  if (must.length === 0) return undefined;
  return must.length === 1 ? must[0] : allOf(...must);
}

/** The filter for `scope` seen from `context`; undefined = no filter. */
export function buildScopeFilter(scope: RecallScope, context: RecallContext): StoreFilter | undefined {
  const isDm = context.isDm ?? (context.channelId !== undefined && context.guildId === undefined);
  const thisDm =
    context.channelId === undefined
      ? undefined
      : allOf(isDmPoint, matchValue('channelId', context.channelId));
  const must: StoreCondition[] = [];
  const mustNot: StoreCondition[] = [];
  switch (scope) {
    case 'global':
      break;
    case 'dm-private':
      // DM memories stay in their own DM; everything else is shared.
      if (isDm && context.channelId !== undefined) {
        mustNot.push(allOf(isDmPoint, noneOf(matchValue('channelId', context.channelId))));
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
      const neutral = allOf(isEmpty('channelId'), notDm);
      const own = context.channelId !== undefined ? matchValue('channelId', context.channelId) : undefined;
      must.push(own ? anyOf(own, neutral) : neutral);
      break;
    }
  }
  return combineConditions(must, mustNot);
}
