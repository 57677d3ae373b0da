/**
 * @module Privacy scopes for recall: a Qdrant filter that keeps memories where they belong, applied to
 * every point whoever wrote it (memory-pool marks DMs with `isDm`; SillyTavern's points have no place at all
 * and count as neutral: no guild, no channel, not a DM).
 */
import type { RecallScope } from '../config/config-types.js';
import type { StoreFilter } from '../store/point-store.js';

/** Where a recall request comes from. */
export interface RecallContext {
  readonly guildId?: string;
  readonly channelId?: string;
  /** Inferred when absent: a channel without a guild is a DM (Discord's shape). */
  readonly isDm?: boolean;
}

const isDmPoint = { key: 'isDm', match: { value: true } };
const equals = (key: string, value: string) => ({ key, match: { value } });
const notDm = { must_not: [isDmPoint] };

/**
 * The filter of one recall: the bot's scope AND the scope the request asks for AND its sources. Each part
 * only removes points, so a request can narrow the bot's scope but never widen it.
 */
export function buildRecallFilter(
  botScope: RecallScope,
  context: RecallContext,
  narrowing: { readonly scope?: RecallScope; readonly sources?: readonly string[] } = {},
): StoreFilter | undefined {
  const parts = [buildScopeFilter(botScope, context)];
  if (narrowing.scope !== undefined) parts.push(buildScopeFilter(narrowing.scope, context));
  if (narrowing.sources !== undefined)
    parts.push({ must: [{ key: 'source', match: { any: [...narrowing.sources] } }] });
  const must = parts.filter((part): part is StoreFilter => part !== undefined);
  if (must.length === 0) return undefined;
  return must.length === 1 ? must[0] : { must };
}

/** The filter for `scope` seen from `context`; undefined = no filter. */
export function buildScopeFilter(scope: RecallScope, context: RecallContext): StoreFilter | undefined {
  const isDm = context.isDm ?? (context.channelId !== undefined && context.guildId === undefined);
  const thisDm =
    context.channelId === undefined
      ? undefined
      : { must: [isDmPoint, equals('channelId', context.channelId)] };
  const must: object[] = [];
  const mustNot: object[] = [];
  switch (scope) {
    case 'global':
      break;
    case 'dm-private':
      // DM memories stay in their own DM; everything else is shared.
      if (isDm && context.channelId !== undefined) {
        mustNot.push({ must: [isDmPoint, { must_not: [equals('channelId', context.channelId)] }] });
      } else {
        mustNot.push(isDmPoint);
      }
      break;
    case 'guild': {
      const neutral = { must: [{ is_empty: { key: 'guildId' } }, notDm] };
      const own =
        context.guildId !== undefined ? equals('guildId', context.guildId) : isDm ? thisDm : undefined;
      must.push(own ? { should: [own, neutral] } : neutral);
      break;
    }
    case 'channel': {
      const neutral = { must: [{ is_empty: { key: 'channelId' } }, notDm] };
      const own = context.channelId !== undefined ? equals('channelId', context.channelId) : undefined;
      must.push(own ? { should: [own, neutral] } : neutral);
      break;
    }
  }
  if (must.length === 0 && mustNot.length === 0) return undefined;
  return { ...(must.length ? { must } : {}), ...(mustNot.length ? { must_not: mustNot } : {}) };
}
