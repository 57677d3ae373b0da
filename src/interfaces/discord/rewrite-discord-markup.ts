/**
 * @module Discord markup in message text rewritten to what a reader of the memory sees: `<@id>` becomes the
 * person's name, `<#id>` the channel's, `<@&id>` the role's, `<:name:id>` the emoji's name.
 */
import type { MessageFacts } from './message-facts.js';

export interface MarkupNames {
  /** Mentions of these user ids stay `<@id>`: the service writes their speakerAlias in their place. */
  readonly aliasedUserIds: ReadonlySet<string>;
  /** The companion's user id and name (its selfSpeaker), so "<@bot> hi" reads as "Mythos hi". */
  readonly selfUserId: string;
  readonly selfName: string;
}

/** Rewrites the markup of one message, with the names its mentions carry. */
export function rewriteDiscordMarkup(
  message: Pick<MessageFacts, 'content' | 'mentionedUsers' | 'mentionedChannels' | 'mentionedRoles'>,
  names: MarkupNames,
): string {
  return message.content
    .replace(/<@!?(\d+)>/g, (mention, id: string) => {
      if (names.aliasedUserIds.has(id)) return `<@${id}>`;
      if (id === names.selfUserId) return names.selfName;
      return message.mentionedUsers.get(id) ?? mention;
    })
    .replace(/<#(\d+)>/g, (mention, id: string) => {
      const name = message.mentionedChannels.get(id);
      return name === undefined ? mention : `#${name}`;
    })
    .replace(/<@&(\d+)>/g, (mention, id: string) => {
      const name = message.mentionedRoles.get(id);
      return name === undefined ? mention : `@${name}`;
    })
    .replace(/<a?:(\w+):\d+>/g, (_emoji, name: string) => `:${name}:`);
}
