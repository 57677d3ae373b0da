/**
 * @module Back-fill of allowed channels on first sight (`discord.backfill`): one channel after another, every
 * history page paced, so joining a server of fifty channels (or `/memory channel allow`) never bursts REST.
 * The messages read go to the recorder, which applies the rules in force then (opt-outs, denies) to each.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Message } from 'discord.js';
import type { Logger } from '../../logging/logger.js';
import { SerialQueue } from '../../runtime/serial-queue.js';
import type { DiscordState } from './discord-state.js';
import { type HistoryChannel, readRecentHistory } from './read-recent-history.js';

export interface ChannelBackfillOptions {
  readonly state: DiscordState;
  readonly logger: Logger;
  /** Messages per channel; 0 turns back-fill off. */
  readonly limit: number;
  /** The pause between any two history reads, also across channels. */
  readonly pageDelayMs: number;
  /** Hands the read messages (oldest first) to the recorder, and marks the channel done after them. */
  readonly record: (messages: readonly Message[], done: () => void) => void;
}

export class ChannelBackfill {
  readonly #options: ChannelBackfillOptions;
  /** One channel after another. */
  readonly #queue = new SerialQueue();
  /** Queued or running: a channel seen twice meanwhile (GUILD_CREATE after an outage, allow twice) is read once. */
  readonly #queued = new Set<string>();
  #lastReadAt = Number.NEGATIVE_INFINITY;

  constructor(options: ChannelBackfillOptions) {
    this.#options = options;
  }

  /** Queues a channel unless back-fill is off, it was back-filled before, or it is already queued. */
  request(channel: HistoryChannel & { readonly id: string }): boolean {
    const { state, logger, limit, pageDelayMs } = this.#options;
    if (limit === 0 || state.hasBackfilled(channel.id) || this.#queued.has(channel.id)) return false;
    this.#queued.add(channel.id);
    void this.#queue.enqueue(async () => {
      try {
        const wait = this.#lastReadAt + pageDelayMs - Date.now();
        if (wait > 0) await sleep(wait);
        const messages = await readRecentHistory(channel, limit, pageDelayMs).finally(() => {
          this.#lastReadAt = Date.now();
        });
        this.#options.record(messages, () => state.markBackfilled(channel.id, Date.now()));
        logger.info({ channel: channel.id, messages: messages.length }, 'discord: back-filled a channel');
      } catch (error) {
        logger.warn({ err: error, channel: channel.id }, 'discord: back-fill failed');
      } finally {
        this.#queued.delete(channel.id);
      }
    });
    return true;
  }

  /** Resolves once every queued channel has been read and handed over. */
  idle(): Promise<void> {
    return this.#queue.idle();
  }
}
