/**
 * @module A chunk's payload trimmed to a passage: the same fields, formatted from the passage's messages by
 * the very function that formats chunks, so a passage reads exactly as a chunk of those messages would
 * (`[YYYY-MM-DD]` of its oldest message, then one `Speaker: text` line each).
 */
import { formatChunk } from '../chunking/chunk-format.js';
import type { MemoryMessage, SpeakerConfig } from '../chunking/memory-message.js';

/**
 * The payload of the passage `messageIds` of a stored chunk, from the chunk's messages as the journal holds
 * them; undefined unless those messages make exactly the stored chunk (same text, same ids), e.g. while an
 * edit or forget is rewriting it or after a speaker alias changed: then only the whole chunk is true.
 */
export function passagePayload(
  chunk: Readonly<Record<string, unknown>>,
  messages: readonly MemoryMessage[],
  messageIds: readonly string[],
  speakers: SpeakerConfig,
): Record<string, unknown> | undefined {
  if (messages.length === 0 || messageIds.length === 0) return undefined;
  const whole = formatChunk(messages, speakers);
  if (whole.text !== chunk.text || whole.messageIds !== chunk.messageIds) return undefined;
  const wanted = new Set(messageIds);
  const picked = messages.filter((message) => wanted.has(message.messageId));
  if (picked.length !== wanted.size) return undefined;
  const passage = formatChunk(picked, speakers);
  return {
    ...chunk,
    text: passage.text,
    speakers: passage.speakers,
    messageCount: passage.messageCount,
    timestamp: passage.timestamp,
    messageIds: passage.messageIds,
  };
}
