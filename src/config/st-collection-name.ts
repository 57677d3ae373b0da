/** @module Collection names as st-qdrant-memory derives them, so both writers land in the same collection. */

/** st-qdrant-memory's default collection base; per-character collections are `<base>_<sanitized name>`. */
export const DEFAULT_COLLECTION_BASE = 'mem';

// Qdrant's limit on a collection name's length.
const MAX_COLLECTION_NAME_LENGTH = 255;

/**
 * st-qdrant-memory's sanitising of a character name: lowercase, every char outside `[a-z0-9_-]` becomes `_`,
 * runs of `_` collapse to one, one leading and one trailing `_` are removed.
 */
export function sanitizeCollectionName(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9_-]/g, '_')
    .replace(/_+/g, '_')
    .replace(/^_|_$/g, '');
}

/** The collection st-qdrant-memory uses for a character of this name: "Dr. Smith" → `mem_dr_smith`. */
export function defaultCollectionName(selfSpeaker: string): string {
  return `${DEFAULT_COLLECTION_BASE}_${sanitizeCollectionName(selfSpeaker)}`;
}

/**
 * Whether a name is safe to use: 1-255 chars of `[A-Za-z0-9_-]` (st-qdrant-memory puts the name in URLs
 * unencoded) and not ending in `_`, which is what a name that sanitises to nothing leaves ("Алиса" → `mem_`):
 * every such agent would share that one collection, so config should ask for an explicit `collection`.
 */
export function isUsableCollectionName(name: string): boolean {
  return name.length <= MAX_COLLECTION_NAME_LENGTH && /^[A-Za-z0-9_-]+$/.test(name) && !name.endsWith('_');
}
