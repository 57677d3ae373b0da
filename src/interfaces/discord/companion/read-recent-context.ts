/**
 * @module The recent messages a companion reply is given: discord.js's cache, topped up once per channel from
 * Discord's history when it holds fewer than wanted (after a restart it holds none).
 */
import type { Message } from 'discord.js';

/** The slice of a discord.js text channel the context is read from. */
export interface ContextChannel {
  readonly id: string;
  readonly messages: {
    readonly cache: ReadonlyMap<string, Message>;
    fetch(options: { limit: number; before: string }): Promise<ReadonlyMap<string, Message>>;
  };
}

/** Reads context, remembering the channels whose history was fetched (the cache keeps them from then on). */
export class RecentContext {
  readonly #toppedUp = new Set<string>();

  /** Up to `count` messages with text up to and including `message`, oldest first. */
  async read(channel: ContextChannel, message: Message, count: number): Promise<Message[]> {
    const usable = (m: Message) =>
      !m.system && m.content.trim() !== '' && m.createdTimestamp <= message.createdTimestamp;
    const byId = new Map([...channel.messages.cache].filter(([, m]) => usable(m)));
    if (byId.size < count && !this.#toppedUp.has(channel.id)) {
      // Discord pages history 100 at a time; contextMessages is at most 100.
      const older = await channel.messages.fetch({ limit: Math.min(count, 100), before: message.id });
      this.#toppedUp.add(channel.id);
      for (const [id, m] of older) if (usable(m)) byId.set(id, m);
    }
    // By id, not by time: ids are in the order Discord received the messages, even within one millisecond.
    return [...byId.values()].sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1)).slice(-count);
  }
}
