/**
 * @module Deletes read from the gateway's raw packets. discord.js drops a delete (of messages, of a thread)
 * in a channel it has not cached, e.g. an archived thread after a restart, and a forget must never be dropped:
 * the recorder reads every delete here instead of from discord.js's events.
 */

/** Messages deleted in one channel (MESSAGE_DELETE, MESSAGE_DELETE_BULK). */
export interface DeletedMessages {
  readonly kind: 'messages';
  readonly ids: readonly string[];
  readonly channelId: string;
  /** Absent in DMs. */
  readonly guildId?: string;
}

/** A deleted thread (THREAD_DELETE): every message in it goes. */
export interface DeletedThread {
  readonly kind: 'thread';
  readonly threadId: string;
}

const isId = (value: unknown): value is string => typeof value === 'string' && value !== '';

/** The delete a raw dispatch packet announces, or `undefined` for any other packet (or a malformed one). */
export function readDeletePacket(packet: {
  readonly t?: unknown;
  readonly d?: unknown;
}): DeletedMessages | DeletedThread | undefined {
  const d = (packet.d ?? {}) as Record<string, unknown>;
  const where = (ids: readonly string[]): DeletedMessages | undefined =>
    isId(d.channel_id) && ids.length > 0
      ? {
          kind: 'messages',
          ids,
          channelId: d.channel_id,
          ...(isId(d.guild_id) ? { guildId: d.guild_id } : {}),
        }
      : undefined;
  switch (packet.t) {
    case 'MESSAGE_DELETE':
      return isId(d.id) ? where([d.id]) : undefined;
    case 'MESSAGE_DELETE_BULK':
      return Array.isArray(d.ids) ? where(d.ids.filter(isId)) : undefined;
    case 'THREAD_DELETE':
      return isId(d.id) ? { kind: 'thread', threadId: d.id } : undefined;
    default:
      return undefined;
  }
}
