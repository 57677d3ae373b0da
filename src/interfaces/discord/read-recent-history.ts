/** @module Reads a channel's recent history for back-fill: pages of 100, newest first, paced between pages. */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Message } from 'discord.js';

/** The slice of a discord.js text channel back-fill reads. */
export interface HistoryChannel {
  readonly messages: {
    fetch(options: { limit: number; before?: string }): Promise<ReadonlyMap<string, Message>>;
  };
}

/** What one read of a channel's history found. */
export interface HistoryRead {
  /** Oldest first. */
  readonly messages: Message[];
  /**
   * Whether `messages` is all the channel holds from the read's start (`since`) on: paging reached a message
   * older than it, or the channel's first message. False when `limit` cut the read short: older messages of
   * the range may exist unread, so nothing may be concluded from a message's absence.
   */
  readonly complete: boolean;
}

/** Discord's page size for message history. */
const PAGE = 100;

/**
 * Up to `limit` recent messages, oldest first, only those created at or after `since` when given (a gap's
 * start: paging stops at the first page reaching back past it); waits `pageDelayMs` between pages (REST
 * allows far more).
 */
export async function readRecentHistory(
  channel: HistoryChannel,
  limit: number,
  pageDelayMs: number,
  since = Number.NEGATIVE_INFINITY,
): Promise<HistoryRead> {
  const newestFirst: Message[] = [];
  let before: string | undefined;
  let complete = false;
  while (newestFirst.length < limit) {
    if (before !== undefined) await sleep(pageDelayMs);
    const size = Math.min(PAGE, limit - newestFirst.length);
    const page = [
      ...(
        await channel.messages.fetch({ limit: size, ...(before === undefined ? {} : { before }) })
      ).values(),
    ];
    const recent = page.filter((message) => message.createdTimestamp >= since);
    newestFirst.push(...recent);
    if (page.length < size || recent.length < page.length) {
      complete = true;
      break;
    }
    before = page.at(-1)?.id;
  }
  return { messages: newestFirst.reverse(), complete };
}
