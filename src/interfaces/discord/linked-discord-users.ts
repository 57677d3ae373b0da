/**
 * @module The Discord users linked to a person of the bot, as the recorder asks for them at each message: read
 * through the service's operation and kept for at most a second (as src/people/people-names.ts), so a link made
 * on any replica keeps the next mention of that user as `<@id>` within ~1 s, without a journal read per message.
 */

/** A second, as the chunk writer's people cache (src/people/people-names.ts; faces may not import it). */
const LINKED_CACHE_MS = 1000;

/** The linked Discord user ids now (at most `ttlMs` old). */
export type LinkedDiscordUsers = () => Promise<ReadonlySet<string>>;

/** Caches `read` for `ttlMs`; a failed read is not kept (the next message asks again). */
export function cacheLinkedDiscordUsers(
  read: () => Promise<readonly string[]>,
  options: { ttlMs?: number; now?: () => number } = {},
): LinkedDiscordUsers {
  const ttlMs = options.ttlMs ?? LINKED_CACHE_MS;
  const now = options.now ?? Date.now;
  let cached: { at: number; ids: Promise<ReadonlySet<string>> } | undefined;
  return () => {
    if (cached !== undefined && now() - cached.at < ttlMs) return cached.ids;
    const ids = read().then((list) => new Set(list));
    const entry = { at: now(), ids };
    ids.catch(() => {
      if (cached === entry) cached = undefined;
    });
    cached = entry;
    return ids;
  };
}
