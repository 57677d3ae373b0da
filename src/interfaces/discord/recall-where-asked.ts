/**
 * @module Discord's recall (`/memory recall`, companion replies): `/retrieve` told where it is asked and narrowed
 * by `discord.recallScope`, so a DM or another server's talk never comes back where it does not belong, whatever
 * the bot's own `retrieve.scope` lets other clients see.
 */
import type { RecallScope } from '../../config/config-types.js';
import type { RetrieveResponse } from '../../wire/retrieve-request.js';
import type { DiscordMemory } from './discord-memory.js';

/** A channel (or thread) in a server, or a DM (no guild). */
interface RecallPlace {
  readonly guildId: string | null;
  readonly channelId: string;
}

export function recallWhereAsked(
  memory: DiscordMemory,
  scope: RecallScope,
  place: RecallPlace,
  query: { readonly query_text: string; readonly exclude_message_ids?: string[] },
): Promise<RetrieveResponse> {
  return memory.retrieve({
    ...query,
    channel_id: place.channelId,
    ...(place.guildId === null ? { is_dm: true } : { guild_id: place.guildId }),
    scope,
  });
}
