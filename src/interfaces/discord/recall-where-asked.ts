/**
 * @module Discord's recall (`/memory recall`, companion replies): `/retrieve` told where it is asked and narrowed
 * by `discord.recallScope`, so a DM or another server's talk never comes back where it does not belong, whatever
 * the bot's own `retrieve.scope` lets other clients see; in a server, nor what was said in a channel its readers
 * may not view.
 */
import type { RecallScope } from '../../config/config-types.js';
import { MAX_READABLE_CHANNEL_IDS, type RetrieveResponse } from '../../wire/retrieve-request.js';
import type { DiscordMemory } from './discord-memory.js';

/** A channel (or thread) in a server, or a DM (no guild), and who asks there. */
interface RecallPlace {
  readonly guildId: string | null;
  readonly channelId: string;
  /**
   * The Discord user asking (who typed the command, or the message answered). In a DM it is named to
   * `/retrieve`, so a person linked across platforms recalls their DMs on every platform (docs/people.md).
   */
  readonly askerId: string;
}

/**
 * Recalls for `place`. In a server, `readableChannelIds` are the server's channels and threads the readers may
 * read (`listReadableChannels`): the server's memories are recalled from those only. Undefined (it could not be
 * told) or more than `/retrieve` takes keeps recall to this channel (`scope: channel`), so a failure to list
 * them never shows what the others hold.
 */
export function recallWhereAsked(
  memory: DiscordMemory,
  scope: RecallScope,
  place: RecallPlace,
  /**
   * `now`: when the question was asked (the message's own time), for "yesterday"; the zone is the bot's.
   * `max_chars`: the most characters of the recalled block (the companion's prompt budget).
   */
  query: {
    readonly query_text: string;
    readonly exclude_message_ids?: string[];
    readonly now?: number;
    readonly max_chars?: number;
  },
  readableChannelIds: readonly string[] | undefined,
): Promise<RetrieveResponse> {
  if (place.guildId === null) {
    return memory.retrieve({
      ...query,
      channel_id: place.channelId,
      is_dm: true,
      discord_user_id: place.askerId,
      scope,
    });
  }
  // The channel asked in is read by whoever asked (a private thread whose members the bot does not know too).
  const readable =
    readableChannelIds === undefined ? undefined : [...new Set([...readableChannelIds, place.channelId])];
  const known = readable !== undefined && readable.length <= MAX_READABLE_CHANNEL_IDS;
  return memory.retrieve({
    ...query,
    channel_id: place.channelId,
    guild_id: place.guildId,
    // `channel` is the narrowest scope: whatever `discord.recallScope` says, it keeps recall to this channel.
    scope: known ? scope : 'channel',
    ...(known ? { readable_channel_ids: readable } : {}),
  });
}
