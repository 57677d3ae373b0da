/**
 * @module Decides where one conversation's pending messages split into chunks, with st-qdrant-memory's
 * size rules, and which messages keep waiting for more of the conversation.
 */
import { formatChunkDate, resolveChunkLine, sortByTimestamp } from './chunk-format.js';
import type { ChunkSizes, MemoryMessage, SpeakerConfig } from './memory-message.js';

/** What the planner needs to know about ONE conversation (bot + source + channel). */
export interface ChunkPlanInput {
  /** The conversation's messages not yet written, in any order (they are ordered by `ts` here). */
  readonly pending: readonly MemoryMessage[];
  readonly sizes: ChunkSizes;
  readonly speakers: SpeakerConfig;
  /** The service's clock, Unix ms. */
  readonly now: number;
  /**
   * When the service last accepted a message of this conversation, by its own clock. Idleness is measured
   * from this rather than from `ts`, because clients may send old timestamps (imports, catch-up after a
   * reconnect) and a conversation that is still going must not be cut just because its `ts` look stale.
   */
  readonly lastArrivalMs: number;
  /** Write the remainder now even if the conversation is not idle (shutdown, an explicit flush). */
  readonly flush?: boolean;
}

export interface ChunkPlan {
  /** Chunks to write now, each a list of messages ordered by `ts`, oldest chunk first. */
  readonly ready: MemoryMessage[][];
  /** Messages that stay pending, ordered by `ts`. */
  readonly pending: MemoryMessage[];
  /** When the pending rest becomes idle (`lastArrivalMs + idleMs`); absent when nothing stays pending. */
  readonly flushAt?: number;
}

/**
 * A message's size in st-qdrant-memory's units: text + speaker name + 4 (for ": " and "\n"), counted on the
 * text as the chunk will show it (mentions rewritten, trimmed).
 */
export function measureMessage(message: MemoryMessage, speakers: SpeakerConfig): number {
  const line = resolveChunkLine(message, speakers);
  return line.text.length + line.speaker.length + 4;
}

/**
 * Whether `next` starts a new chunk after `previous` by time: the conversation paused longer than
 * `maxGapMs` between them, or a new UTC day began (a chunk's `[YYYY-MM-DD]` header is its oldest message's
 * day, so a chunk never spans two days and the header dates every message under it).
 */
function isTimeBreak(previous: MemoryMessage, next: MemoryMessage, sizes: ChunkSizes): boolean {
  return next.ts - previous.ts > sizes.maxGapMs || formatChunkDate(previous.ts) !== formatChunkDate(next.ts);
}

/**
 * Splits pending messages into chunks: closes a chunk before a message that would take it past `maxChars`
 * (a message larger than that becomes a chunk of its own: messages are never split) or that comes after a
 * time break (isTimeBreak), and after a message that brings it to `minChars`. The short remainder is
 * written once the conversation has been idle for `idleMs` by arrival, or when `flush` is set.
 */
export function planChunks(input: ChunkPlanInput): ChunkPlan {
  const { sizes } = input;
  const ready: MemoryMessage[][] = [];
  let current: MemoryMessage[] = [];
  let currentSize = 0;

  for (const message of sortByTimestamp(input.pending)) {
    const size = measureMessage(message, input.speakers);
    const previous = current.at(-1);
    if (previous && (currentSize + size > sizes.maxChars || isTimeBreak(previous, message, sizes))) {
      ready.push(current);
      current = [];
      currentSize = 0;
    }
    current.push(message);
    currentSize += size;
    if (currentSize >= sizes.minChars) {
      ready.push(current);
      current = [];
      currentSize = 0;
    }
  }

  if (current.length === 0) return { ready, pending: [] };
  const flushAt = input.lastArrivalMs + sizes.idleMs;
  if (input.flush === true || input.now >= flushAt) {
    ready.push(current);
    return { ready, pending: [] };
  }
  return { ready, pending: current, flushAt };
}
