/** @module One recorded Discord message as a `/save` message: ids, speaker, place and time as the product keeps them. */
import type { SaveMessage } from '../../wire/save-request.js';
import type { MessageFacts } from './message-facts.js';
import { type MarkupNames, rewriteDiscordMarkup } from './rewrite-discord-markup.js';

/** Every Discord message is saved with this source, so it can be told apart, scoped and forgotten as one. */
export const DISCORD_SOURCE = 'discord';

/**
 * The message id is Discord's own (re-delivered events are the same message), the speaker is the author's id
 * (speakerAliases apply) and display name, and the place is its channel (or thread) and guild; DMs are marked.
 */
export function toSaveMessage(message: MessageFacts, asSelf: boolean, names: MarkupNames): SaveMessage {
  const place = {
    channel_id: message.channelId,
    ...(message.guildId === undefined ? {} : { guild_id: message.guildId }),
    is_dm: message.isDm,
  };
  const text = rewriteDiscordMarkup(message, names);
  const common = {
    message_id: message.id,
    text,
    ts: message.createdAt,
    discord_user_id: message.authorId,
    ...place,
  };
  return asSelf
    ? { speaker_kind: 'self', ...common }
    : { speaker_kind: 'user', speaker_name: message.authorName, ...common };
}
