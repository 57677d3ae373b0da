/**
 * @module A chunk's point id, derived from what the chunk is, so writing the same chunk again (a retry, a
 * replayed journal) overwrites its point instead of adding a duplicate.
 */
import { createHash } from 'node:crypto';

/**
 * The point id of a chunk: SHA-256 of `collection + "\n" + source + "\n" + messageIds.join(",")` shaped as a
 * version-5-style UUID (lowercase, hyphenated), which Qdrant accepts as a point id. The source is part of it
 * because message ids are only unique per interface (synthetic ids like `self-12-1` recur). Pass the ids in
 * chunk order, i.e. `payload.messageIds.split(',')`.
 */
export function deriveChunkPointId(
  collection: string,
  source: string,
  messageIds: readonly string[],
): string {
  const digest = createHash('sha256')
    .update(`${collection}\n${source}\n${messageIds.join(',')}`, 'utf8')
    .digest();
  const bytes = digest.subarray(0, 16);
  // RFC 9562 layout: version 5 in the high nibble of byte 6, variant 0b10 in the top bits of byte 8.
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
