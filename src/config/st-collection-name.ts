/** @module Collection names as st-qdrant-memory (and each of its public forks) derives them, so both writers land in the same collection. */

/** st-qdrant-memory's default collection base; per-character collections are `<base>_<sanitized name>`. */
export const DEFAULT_COLLECTION_BASE = 'mem';

// Qdrant's limit on a collection name's length.
const MAX_COLLECTION_NAME_LENGTH = 255;

/**
 * Whose rule turns a character name into a collection name: `upstream` (st-qdrant-memory itself, the default),
 * `starrysky180111` (its v3.3 fork: keeps CJK ideographs and kana) or `qqpf4zrrwp-blip` (keeps all Unicode and
 * case). Shadota's per-chat fork uses the upstream rule for each part; see docs/interfaces.md, SillyTavern.
 */
export const COLLECTION_NAMINGS = ['upstream', 'starrysky180111', 'qqpf4zrrwp-blip'] as const;
export type CollectionNaming = (typeof COLLECTION_NAMINGS)[number];

const SANITIZERS: Readonly<Record<CollectionNaming, (name: string, base: string) => string>> = {
  // Lowercase, every char outside [a-z0-9_-] becomes `_`, runs of `_` collapse, one leading/trailing `_` goes.
  upstream: (name) => collapseUnderscores(name.toLowerCase().replace(/[^a-z0-9_-]/g, '_')),
  // The same, but CJK ideographs (U+4E00-9FFF, Extension A U+3400-4DBF), hiragana and katakana stay.
  starrysky180111: (name) =>
    collapseUnderscores(
      name.toLowerCase().replace(/[^a-z0-9_\-\u4e00-\u9fff\u3400-\u4dbf\u3040-\u309f\u30a0-\u30ff]/g, '_'),
    ),
  // Case and Unicode stay; runs of Qdrant's forbidden chars, U+0000, U+001F and whitespace become one `_`;
  // empty becomes `default`; cut (in UTF-16 units, as JavaScript counts) so `<base>_<name>` fits 255.
  'qqpf4zrrwp-blip': (name, base) => {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the fork's rule names U+0000 and U+001F.
    const kept = collapseUnderscores(name.replace(/[<>:"/\\|?*\u0000\u001F\s]+/g, '_')) || 'default';
    return kept.slice(0, Math.max(0, MAX_COLLECTION_NAME_LENGTH - base.length - 1));
  },
};

function collapseUnderscores(name: string): string {
  return name.replace(/_+/g, '_').replace(/^_|_$/g, '');
}

/** A character name sanitized by the given fork's rule (upstream's when none is named): "Dr. Smith" → `dr_smith`. */
export function sanitizeCollectionName(
  name: string,
  naming: CollectionNaming = 'upstream',
  base: string = DEFAULT_COLLECTION_BASE,
): string {
  return SANITIZERS[naming](name, base);
}

/** The collection st-qdrant-memory (or the named fork) uses for a character of this name: "Dr. Smith" → `mem_dr_smith`. */
export function defaultCollectionName(selfSpeaker: string, naming: CollectionNaming = 'upstream'): string {
  return `${DEFAULT_COLLECTION_BASE}_${sanitizeCollectionName(selfSpeaker, naming, DEFAULT_COLLECTION_BASE)}`;
}

/**
 * Shadota's fork: one collection per chat, `mem_<character>_<chatId>`, both sanitized the upstream way
 * ("Seraphina", "Seraphina - 2025-05-01@12h30m00s" → `mem_seraphina_seraphina_-_2025-05-01_12h30m00s`);
 * `mem_<character>` when the chat id sanitizes to nothing, as the fork does.
 */
export function perChatCollectionName(selfSpeaker: string, chatId: string): string {
  const chat = sanitizeCollectionName(chatId);
  return chat ? `${defaultCollectionName(selfSpeaker)}_${chat}` : defaultCollectionName(selfSpeaker);
}

// Qdrant refuses these in a new collection's name; whitespace is refused too (no fork's rule leaves any).
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses.
const FORBIDDEN_IN_NAME = /[<>:"/\\|?*\u0000-\u001F\s]/u;

/**
 * Whether a name is safe to use: 1-255 characters, none Qdrant forbids or whitespace, and not ending in `_`,
 * which is what a name that sanitizes to nothing leaves ("Алиса" → `mem_` under the upstream rule): every
 * such agent would share that one collection, so config should ask for an explicit `collection`.
 */
export function isUsableCollectionName(name: string): boolean {
  const length = [...name].length;
  return (
    length >= 1 &&
    length <= MAX_COLLECTION_NAME_LENGTH &&
    !FORBIDDEN_IN_NAME.test(name) &&
    !name.endsWith('_')
  );
}
