/**
 * @module Which messages the recorder may keep: allow-listed guilds and channels (threads inherit their
 * parent), a deny-list that always wins, DMs only when enabled, other bots and webhooks by setting, never
 * system notices, never people who opted out. Pure: every rule is tested with plain objects.
 */
import type { MessageFacts } from './message-facts.js';

/** The rules in force: the config's lists plus what `/memory channel allow|deny` added. */
export interface RecordingRules {
  readonly guilds: ReadonlySet<string>;
  readonly channels: ReadonlySet<string>;
  readonly denyChannels: ReadonlySet<string>;
  readonly dms: boolean;
  readonly otherBots: 'none' | 'mentions' | 'all';
  /** Recorded as `self`: the companion (this account, or the bot that replies for it). */
  readonly selfUserId: string;
  /** This bot account, for "mentions this bot". */
  readonly ownUserId: string;
}

export type RecordingDecision =
  | { readonly record: true; readonly asSelf: boolean }
  | { readonly record: false; readonly reason: string };

/** Whether a place (channel or thread) is recorded, whoever speaks: deny wins, then guild or channel allows. */
export function isPlaceRecorded(
  place: Pick<MessageFacts, 'channelId' | 'parentChannelId' | 'guildId' | 'isDm'>,
  rules: RecordingRules,
): boolean {
  if (place.isDm) return rules.dms;
  const ids = [place.channelId, place.parentChannelId].filter((id): id is string => id !== undefined);
  if (ids.some((id) => rules.denyChannels.has(id))) return false;
  if (place.guildId !== undefined && rules.guilds.has(place.guildId)) return true;
  return ids.some((id) => rules.channels.has(id));
}

/** Decides one message; `optedOut` says whether its author ran `/memory opt-out`. */
export function decideRecording(
  message: MessageFacts,
  rules: RecordingRules,
  optedOut: (userId: string) => boolean,
): RecordingDecision {
  if (message.system) return { record: false, reason: 'system message' };
  if (!isPlaceRecorded(message, rules)) {
    return {
      record: false,
      reason: message.isDm ? 'direct messages are not recorded' : 'channel not allowed',
    };
  }
  if (message.content.trim() === '') return { record: false, reason: 'no text' };
  if (message.authorId === rules.selfUserId) return { record: true, asSelf: true };
  if (message.authorIsBot || message.webhookId !== undefined) {
    if (rules.otherBots === 'none') return { record: false, reason: 'other bots are not recorded' };
    // The companion is this account, or the bot another framework replies through (selfUserId).
    const mentionsCompanion =
      message.mentionedUsers.has(rules.ownUserId) || message.mentionedUsers.has(rules.selfUserId);
    if (rules.otherBots === 'mentions' && !mentionsCompanion) {
      return {
        record: false,
        reason: 'other bots are recorded only when they mention this bot or the companion',
      };
    }
  }
  if (optedOut(message.authorId)) return { record: false, reason: 'author opted out' };
  return { record: true, asSelf: false };
}
