/**
 * @module PluralKit-style proxies delete a person's message and repost its text (proxy tags stripped) through a
 * webhook. That delete is not the person forgetting: a recorded message whose text a webhook reposts in the
 * same channel within a few seconds is kept, and the repost is not recorded twice.
 */

interface RecentMessage {
  readonly id: string;
  readonly channelId: string;
  readonly text: string;
  readonly at: number;
}

/** The most a proxy tag may add on either side of the reposted text (PluralKit's are a few characters). */
const MAX_TAG_CHARS = 16;

/** A proxy tag: short, and one word at most (`l:`, `-l`, `[`), never a clause of the person's own text. */
const isTag = (text: string) => text.length <= MAX_TAG_CHARS && !/\s/.test(text);

/**
 * Whether `original` is `repost` with proxy tags around it: exactly it, or it with a tag before and/or after.
 * A repost merely found inside a longer message ("ok" in "I took the book") is not one.
 */
function isTaggedRepost(original: string, repost: string): boolean {
  if (original === repost) return true;
  for (let at = original.indexOf(repost); at >= 0; at = original.indexOf(repost, at + 1)) {
    const before = original.slice(0, at).trim();
    const after = original.slice(at + repost.length).trim();
    if (isTag(before) && isTag(after)) return true;
  }
  return false;
}

/** Recently recorded messages and recent webhook posts, per channel, kept for `graceMs`. */
export class ProxyReposts {
  readonly #recorded: RecentMessage[] = [];
  /** Ids of recorded messages a webhook has reposted (their deletes are not forgets), with when. */
  readonly #proxied = new Map<string, number>();

  constructor(readonly graceMs: number) {}

  #prune(now: number): void {
    while (this.#recorded.length > 0 && this.#recorded[0]!.at < now - this.graceMs) this.#recorded.shift();
    // A proxy deletes its original within the grace, and the delete is decided a grace later at most.
    for (const [id, at] of this.#proxied) if (at < now - 2 * this.graceMs) this.#proxied.delete(id);
  }

  /** Remembers a recorded message for a while (a proxy's repost follows within seconds). */
  noteRecorded(id: string, channelId: string, text: string, now: number): void {
    this.#prune(now);
    this.#recorded.push({ id, channelId, text: text.trim(), at: now });
  }

  /**
   * A webhook post: true when it reposts a message recorded just before in the same channel (so it is not
   * recorded again; the original stays, the person's own message). PluralKit strips the proxy tags (`l: hi`
   * and `hi -l` are reposted as `hi`), so the original may carry a short tag around the repost's text; an
   * exact match wins, then the latest original. Each original is matched by one repost at most.
   */
  noteWebhookPost(channelId: string, text: string, now: number): boolean {
    this.#prune(now);
    const repost = text.trim();
    if (repost === '') return false;
    const candidates = this.#recorded.filter(
      (m) => m.channelId === channelId && !this.#proxied.has(m.id) && isTaggedRepost(m.text, repost),
    );
    const original = candidates.find((m) => m.text === repost) ?? candidates.at(-1);
    if (original !== undefined) this.#proxied.set(original.id, now);
    return original !== undefined;
  }

  /** Whether a deleted message was just reposted by a webhook. */
  wasProxied(id: string): boolean {
    return this.#proxied.has(id);
  }

  /** Whether a delete may still be followed by its repost: the message was recorded moments ago. */
  isRecent(id: string, now: number): boolean {
    this.#prune(now);
    return this.#recorded.some((m) => m.id === id);
  }
}
