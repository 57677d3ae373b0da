/** @module How a message row of the journal maps to a MemoryMessage, and which conversation it belongs to. */
import type { MemoryMessage, SpeakerKind } from '../chunking/memory-message.js';

/** A message as the journal holds it. */
export interface JournalMessage extends MemoryMessage {
  readonly arrivedAt: number;
  readonly chunkId: string | undefined;
}

/** A `messages` row as better-sqlite3 returns it. */
export interface MessageRow {
  bot: string;
  message_id: string;
  source: string;
  speaker_kind: string;
  text: string;
  ts: number;
  user_id: string | null;
  speaker_name: string | null;
  channel_id: string | null;
  guild_id: string | null;
  is_dm: number;
  arrived_at: number;
  chunk_id: string | null;
}

/** The key that groups messages into one conversation: chunks never mix sources or channels. */
export function conversationKey(message: Pick<MemoryMessage, 'source' | 'channelId'>): string {
  return `${message.source}\u0000${message.channelId ?? ''}`;
}

export function toMessage(row: MessageRow): JournalMessage {
  return {
    bot: row.bot,
    messageId: row.message_id,
    source: row.source,
    speakerKind: row.speaker_kind as SpeakerKind,
    text: row.text,
    ts: row.ts,
    ...(row.user_id === null ? {} : { userId: row.user_id }),
    ...(row.speaker_name === null ? {} : { speakerName: row.speaker_name }),
    ...(row.channel_id === null ? {} : { channelId: row.channel_id }),
    ...(row.guild_id === null ? {} : { guildId: row.guild_id }),
    ...(row.is_dm === 1 ? { isDm: true } : {}),
    arrivedAt: row.arrived_at,
    chunkId: row.chunk_id ?? undefined,
  };
}
