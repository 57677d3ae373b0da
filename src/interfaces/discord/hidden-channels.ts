/**
 * @module The channels and threads of a server that someone may not read, so that recall there leaves out
 * what was said in them (`exclude_channel_ids` of `/retrieve`).
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
 * The ids of `guild`'s cached channels and threads that some reader cannot view, with the threads recorded
 * under each hidden channel (`channelWithThreads`: archived threads are not cached, their parents are kept).
 * Undefined when it cannot be told (no `@everyone` role cached): the caller must then fail closed.
 */
export function listHiddenChannels(
  guild: Guild,
  readers: readonly ChannelReader[],
  channelWithThreads: (channelId: string) => readonly string[],
): string[] | undefined {
  // Every permission starts from @everyone; without it discord.js cannot compute any (it throws).
  if (!guild.roles.cache.has(guild.id)) return undefined;
  const hidden = new Set<string>();
  for (const channel of guild.channels.cache.values()) {
    if (readers.every((reader) => canView(channel, reader))) continue;
    for (const id of channel.isThread() ? [channel.id] : channelWithThreads(channel.id)) hidden.add(id);
  }
  return [...hidden];
}

/** Discord's rule: View Channel (a thread's is its parent's), and for a private thread being in it or managing threads. */
function canView(channel: GuildBasedChannel, reader: ChannelReader): boolean {
  // A thread whose parent is not cached has no permissions (null): counted as hidden.
  const permissions = channel.permissionsFor(reader);
  if (permissions === null || !permissions.has(PermissionFlagsBits.ViewChannel)) return false;
  if (channel.type !== ChannelType.PrivateThread) return true;
  // Thread members are cached only as Discord sends them (without the GuildMembers intent, rarely): a member of
  // the thread not in the cache counts as outside it, so its memories stay out rather than leak.
  return (
    permissions.has(PermissionFlagsBits.ManageThreads) ||
    (reader instanceof GuildMember && channel.members.cache.has(reader.id))
  );
}
