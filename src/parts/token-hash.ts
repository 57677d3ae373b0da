/**
 * @module A term's index in the sparse vector: a stable 32-bit hash of the term, so the parts index needs no
 * stored vocabulary and every memory-pool (and a reindex) maps a term to the same dimension.
 */

const FNV_OFFSET_BASIS = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const encoder = new TextEncoder();

/**
 * FNV-1a 32-bit over the term's UTF-8 bytes, unsigned (Qdrant's sparse indices are u32). A collision only
 * merges two terms' weights; at 32 bits that is rare for a chat vocabulary and costs no correctness.
 */
export function hashToken(token: string): number {
  let hash = FNV_OFFSET_BASIS;
  for (const byte of encoder.encode(token)) {
    hash ^= byte;
    hash = Math.imul(hash, FNV_PRIME);
  }
  return hash >>> 0;
}
