/**
 * @module The narrow view of a Discord message the recorder decides on: plain data, so the rules are tested
 * with plain objects and only `readMessageFacts` knows discord.js.
 */
import { ChannelType, type Message, type PartialMessage } from 'discord.js';

/** What the recorder needs of one message. Ids are snowflake strings, never numbers. */
export interface MessageFacts {
  readonly id: string;
  /** The channel, or the thread for a message in a thread. */
  readonly channelId: string;
  /** A thread's parent channel: allow and deny rules of the parent apply to its threads. */
  readonly parentChannelId?: string;
  /** For a message in a thread: whether everyone who can view the parent can view the thread. */
  readonly threadIsPublic?: boolean;
  /** Absent in direct messages. */
  readonly guildId?: string;
  readonly isDm: boolean;
  readonly authorId: string;
  /** The member's nickname, else the account's display name, else its username. */
  readonly authorName: string;
  readonly authorIsBot: boolean;
  /** Set for webhook posts (PluralKit-style proxies, integrations). */
  readonly webhookId?: string;
  /** Join, pin and boost notices: never recorded. */
  readonly system: boolean;
  readonly content: string;
  readonly createdAt: number;
  /** Null for a message never edited (an unfurl's update keeps it null). */
  readonly editedAt: number | null;
  /** User ids this message mentions, with the names to write for them. */
  readonly mentionedUsers: ReadonlyMap<string, string>;
  readonly mentionedChannels: ReadonlyMap<string, string>;
  readonly mentionedRoles: ReadonlyMap<string, string>;
}

/** Reads a full discord.js message; `undefined` for a partial one (its author and content are unknown). */
export function readMessageFacts(message: Message | PartialMessage): MessageFacts | undefined {
  if (message.partial || message.author === null) return undefined;
  const channel = message.channel;
  const parentChannelId = channel.isThread() ? (channel.parentId ?? undefined) : undefined;
  const users = new Map<string, string>();
  for (const user of message.mentions.users.values()) {
    users.set(user.id, message.mentions.members?.get(user.id)?.displayName ?? user.displayName);
  }
  const channels = new Map<string, string>();
  for (const mentioned of message.mentions.channels.values()) {
    if ('name' in mentioned && typeof mentioned.name === 'string') channels.set(mentioned.id, mentioned.name);
  }
  const roles = new Map<string, string>();
  for (const role of message.mentions.roles.values()) roles.set(role.id, role.name);
  return {
    id: message.id,
    channelId: message.channelId,
    ...(parentChannelId === undefined
      ? {}
      : { parentChannelId, threadIsPublic: channel.type !== ChannelType.PrivateThread }),
    ...(message.guildId === null ? {} : { guildId: message.guildId }),
    isDm: message.guildId === null,
    authorId: message.author.id,
    authorName: message.member?.displayName ?? message.author.displayName,
    authorIsBot: message.author.bot,
    ...(message.webhookId ? { webhookId: message.webhookId } : {}),
    system: message.system,
    content: message.content,
    createdAt: message.createdTimestamp,
    editedAt: message.editedTimestamp,
    mentionedUsers: users,
    mentionedChannels: channels,
    mentionedRoles: roles,
  };
}
