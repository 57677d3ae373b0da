/**
 * @module One recalled memory as POST /retrieve returns it, read tolerantly from a Qdrant point that any
 * writer may have made: memory-pool, st-qdrant-memory, its old single-message versions, or something else.
 */
import { splitMessageIds } from '../chunking/held-message-ids.js';
import type { RetrieveHit } from '../wire/retrieve-request.js';

/**
 * One hit: the wire shape of POST /retrieve (fields mirror the payload, format.md, so `speakers` and
 * `messageIds` stay comma-joined strings), plus what only formatting needs.
 */
export interface RecallHit extends RetrieveHit {
  /**
   * Set only on old single-message points (st-qdrant-memory before chunking: no `isChunk`, a `speaker` of
   * "user" or "character"). Like st, anything that is not "user" counts as the character.
   */
  readonly legacySpeaker?: 'user' | 'character';
}

/** The slice of a Qdrant scored point this reads; Qdrant may send a null payload. */
export interface ScoredPointLike {
  readonly id: string | number;
  readonly score: number;
  readonly payload?: Readonly<Record<string, unknown>> | null;
}

function readString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A comma-joined string as written, or an array some other writer stored, joined the way format.md joins. */
function readJoined(value: unknown, separator: string): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(String).join(separator);
  return undefined;
}

function readTimestamp(value: unknown): number {
  const ts = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof ts === 'number' && Number.isFinite(ts) ? ts : 0;
}

/** Maps a scored point to a hit, filling what the writer left out with empty values rather than failing. */
export function toRecallHit(point: ScoredPointLike): RecallHit {
  const payload = point.payload ?? {};
  // st-qdrant-memory tells chunks from old single-message points by a truthy `isChunk`, nothing else.
  const isChunk = Boolean(payload.isChunk);
  const legacyId = payload.messageId;
  const messageIds =
    readJoined(payload.messageIds, ',') ??
    (!isChunk && (typeof legacyId === 'string' || typeof legacyId === 'number') ? String(legacyId) : '');
  const messageCount = payload.messageCount;

  const hit: { -readonly [K in keyof RecallHit]: RecallHit[K] } = {
    id: point.id,
    score: point.score,
    text: readString(payload.text) ?? '',
    speakers: readJoined(payload.speakers, ', ') ?? '',
    timestamp: readTimestamp(payload.timestamp),
    messageIds,
    messageCount:
      typeof messageCount === 'number' && Number.isFinite(messageCount)
        ? messageCount
        : isChunk
          ? splitMessageIds(messageIds).length
          : 1,
  };
  if (!isChunk) hit.legacySpeaker = payload.speaker === 'user' ? 'user' : 'character';
  // Optional fields are set only when present, so the JSON answer carries no null or empty keys.
  const source = readString(payload.source);
  const channelId = readString(payload.channelId);
  const guildId = readString(payload.guildId);
  if (source !== undefined) hit.source = source;
  if (channelId !== undefined) hit.channelId = channelId;
  if (guildId !== undefined) hit.guildId = guildId;
  return hit;
}
