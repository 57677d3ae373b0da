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

/** Recently recorded messages and recent webhook posts, per channel, kept for `graceMs`. */
export class ProxyReposts {
  readonly #recorded: RecentMessage[] = [];
  readonly #reposts: RecentMessage[] = [];
  /** Ids of recorded messages a webhook has reposted: their deletes are not forgets. */
  readonly #proxied = new Set<string>();

  constructor(readonly graceMs: number) {}

  #prune(now: number): void {
    for (const list of [this.#recorded, this.#reposts]) {
      while (list.length > 0 && list[0]!.at < now - this.graceMs) list.shift();
    }
    if (this.#recorded.length === 0) this.#proxied.clear();
  }

  /** Remembers a recorded message for a while (a proxy's repost follows within seconds). */
  noteRecorded(id: string, channelId: string, text: string, now: number): void {
    this.#prune(now);
    this.#recorded.push({ id, channelId, text: text.trim(), at: now });
  }

  /**
   * A webhook post: true when it reposts a message recorded just before in the same channel (so it is not
   * recorded again; the original stays, the person's own message). PluralKit strips the proxy tags (`l: hi`
   * and `hi -l` are reposted as `hi`), so the original's text need only contain the repost's; an exact match
   * wins, then the latest original.
   */
  noteWebhookPost(channelId: string, text: string, now: number): boolean {
    this.#prune(now);
    const repost = { id: '', channelId, text: text.trim(), at: now };
    this.#reposts.push(repost);
    if (repost.text === '') return false;
    const candidates = this.#recorded.filter(
      (m) => m.channelId === channelId && m.text.includes(repost.text),
    );
    const original = candidates.find((m) => m.text === repost.text) ?? candidates.at(-1);
    if (original !== undefined) this.#proxied.add(original.id);
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
