/**
 * @module The channels and threads of a server that every given reader may read, so that recall there keeps to
 * them (`readable_channel_ids` of `/retrieve`). It is an allow-list: a channel it cannot vouch for (not cached,
 * deleted while the bot was away, a thread of unknown kind) is left out, never shown.
 */
import {
  ChannelType,
  type Guild,
  type GuildBasedChannel,
  GuildMember,
  PermissionFlagsBits,
  type Role,
} from 'discord.js';

/** Who must be able to read a memory for it to be recalled: a member, or a role (`@everyone`: anyone). */
export type ChannelReader = GuildMember | Role;

/**
 * The ids of `guild`'s cached channels and threads every reader may read, with the recorded public threads of
 * each readable channel (`publicThreads`, by parent: archived threads are not cached; read only when needed).
 * Undefined when it cannot be told (no `@everyone` role cached, discord.sqlite unreadable, a cache discord.js
 * cannot compute from): the caller must then keep recall to the channel asked in.
 */
export function listReadableChannels(
  guild: Guild,
  readers: readonly ChannelReader[],
  publicThreads: () => ReadonlyMap<string, readonly string[]>,
): string[] | undefined {
  // Every permission starts from @everyone; without it discord.js cannot compute any (it throws).
  if (!guild.roles.cache.has(guild.id)) return undefined;
  try {
    const threadsByParent = publicThreads();
    const readable = new Set<string>();
    for (const channel of guild.channels.cache.values()) {
      // A category holds no messages.
      if (channel.type === ChannelType.GuildCategory) continue;
      if (!readers.every((reader) => canRead(channel, reader))) continue;
      readable.add(channel.id);
      if (!channel.isThread())
        for (const thread of threadsByParent.get(channel.id) ?? []) readable.add(thread);
    }
    return [...readable];
  } catch {
    return undefined;
  }
}

/**
 * Discord's rule for reading what was said: View Channel and Read Message History (a thread's are its parent's),
 * and for a private thread being in it or managing threads.
 */
function canRead(channel: GuildBasedChannel, reader: ChannelReader): boolean {
  // A thread whose parent is not cached has no permissions (null): not readable.
  const permissions = channel.permissionsFor(reader);
  if (permissions === null) return false;
  if (!permissions.has(PermissionFlagsBits.ViewChannel | PermissionFlagsBits.ReadMessageHistory))
    return false;
  if (channel.type !== ChannelType.PrivateThread) return true;
  // Thread members are cached only as Discord sends them (without the GuildMembers intent, rarely): a member of
  // the thread not in the cache counts as outside it, so its memories stay out rather than leak.
  return (
    permissions.has(PermissionFlagsBits.ManageThreads) ||
    (reader instanceof GuildMember && channel.members.cache.has(reader.id))
  );
}
