/** @module Deterministic message ids for MCP `remember`, so an agent that repeats itself stores the memory once. */
import { createHash } from 'node:crypto';

/** `mcp:` plus a hash of the text, the speaker and the caller's own id (when it has one). */
export function deriveRememberMessageId(text: string, speaker: string, clientId?: string): string {
  // NUL separators keep ("ab", "c") and ("a", "bc") apart.
  const digest = createHash('sha256')
    .update(`${text}\0${speaker}\0${clientId ?? ''}`)
    .digest('hex');
  return `mcp:${digest.slice(0, 32)}`;
}
