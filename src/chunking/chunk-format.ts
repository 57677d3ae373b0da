/** @module Turns a conversation's messages into one point payload, byte for byte as format.md defines it. */
import { findDmWith } from './dm-with.js';
import type { ChunkPayload, MemoryMessage, SpeakerConfig } from './memory-message.js';
import { resolveSpeaker, rewriteMentions } from './speaker-names.js';

/** One `Speaker: text` line before joining: the name and the text as the chunk will show them. */
export interface ChunkLine {
  readonly speaker: string;
  readonly text: string;
}

/** Names the speaker and rewrites mentions; the text is trimmed as st-qdrant-memory trims indexed messages. */
export function resolveChunkLine(message: MemoryMessage, config: SpeakerConfig): ChunkLine {
  return {
    speaker: resolveSpeaker(message, config),
    text: rewriteMentions(message.text, config.speakerAliases, config.people).trim(),
  };
}

/** Orders by `ts`, oldest first; Array#sort is stable, so ties keep the order they were given in. */
export function sortByTimestamp(messages: readonly MemoryMessage[]): MemoryMessage[] {
  return [...messages].sort((a, b) => a.ts - b.ts);
}

/** `YYYY-MM-DD` of a Unix ms time in UTC, as st-qdrant-memory dates its chunks. */
export function formatChunkDate(ts: number): string {
  return new Date(ts).toISOString().slice(0, 10);
}

/**
 * Builds the payload of one chunk from consecutive messages of one conversation: dated by the oldest
 * message, one line per message, speakers in order of first appearance. Throws on an empty list.
 */
export function formatChunk(messages: readonly MemoryMessage[], config: SpeakerConfig): ChunkPayload {
  const ordered = sortByTimestamp(messages);
  const oldest = ordered[0];
  if (oldest === undefined) throw new RangeError('formatChunk needs at least one message');

  const lines = ordered.map((message) => resolveChunkLine(message, config));
  const body = lines.map((line) => `${line.speaker}: ${line.text}`).join('\n');
  const speakers = [...new Set(lines.map((line) => line.speaker))];

  const payload: ChunkPayload = {
    text: `[${formatChunkDate(oldest.ts)}]\n${body.trim()}`,
    speakers: speakers.join(', '),
    messageCount: ordered.length,
    timestamp: oldest.ts,
    messageIds: ordered.map((message) => message.messageId).join(','),
    isChunk: true,
    source: oldest.source,
  };
  // Optional fields are left out rather than set to undefined, so the stored JSON has no empty keys.
  const channelId = ordered.find((message) => message.channelId !== undefined)?.channelId;
  const guildId = ordered.find((message) => message.guildId !== undefined)?.guildId;
  if (channelId !== undefined) payload.channelId = channelId;
  if (guildId !== undefined) payload.guildId = guildId;
  if (ordered.some((message) => message.isDm === true)) payload.isDm = true;
  const dmWith = findDmWith(ordered, config.people);
  if (dmWith !== undefined) payload.dmWith = dmWith;
  return payload;
}
