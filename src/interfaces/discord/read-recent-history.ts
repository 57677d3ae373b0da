/** @module Reads a channel's recent history for back-fill: pages of 100, newest first, paced between pages. */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Message } from 'discord.js';

/** The slice of a discord.js text channel back-fill reads. */
export interface HistoryChannel {
  readonly messages: {
    fetch(options: { limit: number; before?: string }): Promise<ReadonlyMap<string, Message>>;
  };
}

/** Discord's page size for message history. */
const PAGE = 100;

/** Up to `limit` recent messages, oldest first; waits `pageDelayMs` between pages (REST allows far more). */
export async function readRecentHistory(
  channel: HistoryChannel,
  limit: number,
  pageDelayMs: number,
): Promise<Message[]> {
  const newestFirst: Message[] = [];
  let before: string | undefined;
  while (newestFirst.length < limit) {
    if (before !== undefined) await sleep(pageDelayMs);
    const size = Math.min(PAGE, limit - newestFirst.length);
    const page = [
      ...(
        await channel.messages.fetch({ limit: size, ...(before === undefined ? {} : { before }) })
      ).values(),
    ];
    newestFirst.push(...page);
    if (page.length < size) break;
    before = page.at(-1)?.id;
  }
  return newestFirst.reverse();
}
