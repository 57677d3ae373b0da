/** @module The message ids a stored chunk holds, read from its payload's comma-joined `messageIds` (format.md). */

/** The distinct ids in `messageIds`, split exactly as st-qdrant-memory does; none when it is not a string. */
export function readHeldMessageIds(messageIds: unknown): string[] {
  return [...new Set(splitMessageIds(messageIds))];
}

/**
 * Every id in `messageIds` in order, repeats kept (trimmed, empty ones dropped); none when it is not a
 * string. For counting a payload's messages as written; readHeldMessageIds for the set of them.
 */
export function splitMessageIds(messageIds: unknown): string[] {
  if (typeof messageIds !== 'string') return [];
  // Split exactly: a substring match would take `X_1_1` for `X_1_10`.
  return messageIds
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '');
}
