/**
 * @module Which recorded messages were deleted on Discord while no replica was connected: those a complete gap
 * read of their channel no longer holds. A proxy's original (PluralKit deletes it and reposts its text through
 * a webhook within seconds, see proxy-reposts.ts) is not a delete: it is kept, and its repost not recorded.
 * A false forget is the worst outcome here, so a missing message followed by any webhook post within the grace
 * is kept too: the repost's text is rebuilt from REST (mentions without the gateway's member nicknames, a
 * member cache the fresh client lacks), so it may not match the journal's text of its original (review s26, 2).
 */
import type { RecordedMessage } from './discord-memory.js';
import { ProxyReposts } from './proxy-reposts.js';

/** A message of the gap read, as the decision needs it: its time, and for a webhook post its text as saved. */
export interface GapReadMessage {
  readonly id: string;
  readonly createdAt: number;
  /**
   * Set for a webhook post: its text rewritten as the recorder saves text (what `RecordedMessage.text` holds),
   * empty when it has none the recorder would save.
   */
  readonly webhookText?: string;
}

export interface GapDeletesInput {
  readonly channelId: string;
  /** What was recorded in the channel within the read's range (the journal's rows). */
  readonly recorded: readonly RecordedMessage[];
  /** Everything the complete read found in that range. */
  readonly read: readonly GapReadMessage[];
  /** How long after its original a proxy's repost may follow. */
  readonly graceMs: number;
  /** Ids this connection recorded from live events: their deletes arrive live, and the read may predate them. */
  readonly recordedHere: (id: string) => boolean;
}

export interface GapDeletes {
  /** Recorded ids the history no longer holds: deleted by their authors (or a moderator) during the gap. */
  readonly deleted: string[];
  /** Webhook posts of the read that repost a kept original: recorded already, under the original's id. */
  readonly reposts: ReadonlySet<string>;
}

/**
 * Compares the recorded messages with the read. The proxy rule runs on Discord's times (the snowflakes') in
 * order, as it runs on arrival times live: each missing original, then each webhook post that may repost it.
 */
export function findGapDeletes(input: GapDeletesInput): GapDeletes {
  const inRead = new Set(input.read.map((message) => message.id));
  const missing = input.recorded.filter((m) => !inRead.has(m.id) && !input.recordedHere(m.id));
  if (missing.length === 0) return { deleted: [], reposts: new Set() };
  type Event = { at: number; original?: RecordedMessage; post?: GapReadMessage };
  const events: Event[] = [
    ...missing.map((original) => ({ at: original.ts, original })),
    ...input.read.filter((m) => m.webhookText !== undefined).map((post) => ({ at: post.createdAt, post })),
  ];
  // An original before a post of the same millisecond: a repost never precedes what it reposts.
  events.sort((x, y) => x.at - y.at || (x.original ? -1 : 0) - (y.original ? -1 : 0));
  const proxies = new ProxyReposts(input.graceMs);
  const proxied = new Set<string>();
  const reposts = new Set<string>();
  for (const event of events) {
    if (event.original !== undefined) {
      proxies.noteRecorded(event.original.id, input.channelId, event.original.text, event.at);
    } else if (event.post !== undefined) {
      if (!proxies.noteWebhookPost(input.channelId, event.post.webhookText ?? '', event.at)) continue;
      reposts.add(event.post.id);
      // Read now: the proxy forgets what it matched after a while.
      for (const original of missing) if (proxies.wasProxied(original.id)) proxied.add(original.id);
    }
  }
  const posts = input.read.filter((m) => m.webhookText !== undefined).map((post) => post.createdAt);
  const followedByPost = (original: RecordedMessage) =>
    posts.some((at) => at >= original.ts && at <= original.ts + input.graceMs);
  const deleted = missing.filter((m) => !proxied.has(m.id) && !followedByPost(m)).map((m) => m.id);
  return { deleted, reposts };
}
