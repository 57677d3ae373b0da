/**
 * @module One chunk's parts as points of the parts collection: planned from the chunk's messages, linked to
 * the chunk point, and carrying the chunk's place (source, channel, guild, DM) so scopes and forget
 * selectors filter parts exactly as they filter chunks.
 */
import { createHash } from 'node:crypto';
import { resolveChunkLine, sortByTimestamp } from '../chunking/chunk-format.js';
import type { ChunkPayload, MemoryMessage, SpeakerConfig } from '../chunking/memory-message.js';
import { type PartPlanOptions, type PlannedPart, planParts } from './plan-parts.js';

/** The payload of a part point. */
export interface PartPayload {
  /** The chunk point this part belongs to (in the shared collection). */
  chunkId: string;
  /** The part's messages, `","`-joined as in the chunk payload. */
  messageIds: string;
  /** The part's `Speaker: text` lines. */
  text: string;
  /** Unix ms of the part's oldest message. */
  timestamp: number;
  source?: string;
  channelId?: string;
  guildId?: string;
  isDm?: true;
  /** Who the chunk's DM is with, as the chunk says (recall filters parts as it filters chunks). */
  dmWith?: string;
}

/** A part ready to embed and store. */
export interface PartPoint {
  readonly id: string;
  readonly payload: PartPayload;
}

/** Messages per part: each message with its next neighbor (measured against three, docs/recall.md). */
export const MESSAGES_PER_PART = 2;

/**
 * A part's point id: SHA-256 of `chunkId + "\n" + messageIds` as a UUID, so rewriting a chunk (an edit)
 * overwrites its parts in place, and a part that changed messages (a forget) gets a new id.
 */
export function derivePartPointId(chunkId: string, messageIds: readonly string[]): string {
  const bytes = createHash('sha256')
    .update(`${chunkId}\n${messageIds.join(',')}`, 'utf8')
    .digest();
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Builds the part points of a chunk from its messages (as the chunk shows them: same names and text). */
export function buildPartPoints(
  chunkId: string,
  chunk: ChunkPayload,
  messages: readonly MemoryMessage[],
  speakers: SpeakerConfig,
  plan: PartPlanOptions,
): PartPoint[] {
  const lines = sortByTimestamp(messages).map((message) => {
    const line = resolveChunkLine(message, speakers);
    return { messageId: message.messageId, line: `${line.speaker}: ${line.text}`, ts: message.ts };
  });
  return planParts(lines, plan).map((part) => toPartPoint(chunkId, chunk, part));
}

/** One planned part of `chunk` as a point: linked to the chunk point, in the chunk's place. */
export function toPartPoint(chunkId: string, chunk: Partial<ChunkPayload>, part: PlannedPart): PartPoint {
  const payload: PartPayload = {
    chunkId,
    messageIds: part.messageIds.join(','),
    text: part.text,
    timestamp: part.timestamp,
  };
  if (chunk.source !== undefined) payload.source = chunk.source;
  if (chunk.channelId !== undefined) payload.channelId = chunk.channelId;
  if (chunk.guildId !== undefined) payload.guildId = chunk.guildId;
  if (chunk.isDm === true) payload.isDm = true;
  if (chunk.dmWith !== undefined) payload.dmWith = chunk.dmWith;
  return { id: derivePartPointId(chunkId, part.messageIds), payload };
}
