/**
 * @module st-qdrant-memory's per-character collection name, so a bot and its SillyTavern character share
 * one collection by default. Interim copy inside config until src/store/collection-name.ts lands.
 */

/** `mem_` + the name lowercased, chars outside [a-z0-9_-] as `_`, `_` runs collapsed, edge `_` trimmed. */
export function defaultCollectionName(selfSpeaker: string, base = 'mem'): string {
  const sanitized = selfSpeaker
    .toLowerCase()
    .replace(/[^a-z0-9_-]/g, '_')
    .replace(/_+/g, '_')
    .replace(/^_+|_+$/g, '');
  return `${base}_${sanitized}`;
}
