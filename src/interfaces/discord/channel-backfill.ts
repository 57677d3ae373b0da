/**
 * @module Back-fill of allowed channels on first sight (`discord.backfill`), and of the gap a gateway connection
 * left (a restart, or another replica's death before this one took over): one channel after another, every
 * history page paced, so joining a server of fifty channels (or `/memory channel allow`) never bursts REST.
 * The messages read go to the recorder, which applies the rules in force then (opt-outs, denies) to each and
 * skips those already recorded (message ids are the key).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Message } from 'discord.js';
import type { Logger } from '../../logging/logger.js';
import { SerialQueue } from '../../runtime/serial-queue.js';
import type { DiscordState } from './discord-state.js';
import { type HistoryChannel, type HistoryRead, readRecentHistory } from './read-recent-history.js';

/** The times a gap read covers: messages created from `since` until `until` (when its first page was asked for). */
export interface GapRange {
  readonly since: number;
  readonly until: number;
}

export interface ChannelBackfillOptions {
  readonly state: DiscordState;
  readonly logger: Logger;
  /** Messages per channel; 0 turns back-fill off. */
  readonly limit: number;
  /** The pause between any two history reads, also across channels. */
  readonly pageDelayMs: number;
  /** Hands the read messages (oldest first) to the recorder, and marks the channel done after them. */
  readonly record: (messages: readonly Message[], done: () => Promise<void>) => void;
  /** Hands a gap read to the recorder: what it found (and whether that is all of `range`) in `channelId`. */
  readonly recordGap: (channelId: string, read: HistoryRead, range: GapRange) => void;
}

/** The most a gap back-fill reads per channel (ten pages): a longer outage keeps its latest messages. */
export const GAP_LIMIT = 1000;

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
    const { state, limit } = this.#options;
    if (limit === 0 || state.hasBackfilled(channel.id)) return false;
    return this.#read(channel, channel.id, limit, Number.NEGATIVE_INFINITY, ({ messages }) =>
      this.#options.record(messages, () => state.markBackfilled(channel.id, Date.now())),
    );
  }

  /**
   * Queues a read of what `channel` (a thread too) received since `since`, at most GAP_LIMIT messages, whether
   * or not first-sight back-fill is on: it recovers what the live connection would have recorded, and (when
   * complete) tells which messages recorded in the range were deleted meanwhile. A read that fails is logged
   * and handed over to nobody.
   */
  requestGap(channel: HistoryChannel & { readonly id: string }, since: number): boolean {
    return this.#read(channel, `gap:${channel.id}`, GAP_LIMIT, since, (read, startedAt) =>
      this.#options.recordGap(channel.id, read, { since, until: startedAt }),
    );
  }

  #read(
    channel: HistoryChannel & { readonly id: string },
    key: string,
    limit: number,
    since: number,
    hand: (read: HistoryRead, startedAt: number) => void,
  ): boolean {
    const { logger, pageDelayMs } = this.#options;
    if (this.#queued.has(key)) return false;
    this.#queued.add(key);
    void this.#queue.enqueue(async () => {
      try {
        const wait = this.#lastReadAt + pageDelayMs - Date.now();
        if (wait > 0) await sleep(wait);
        // Taken before the first page is asked for: every message created until then is in the read, or deleted.
        const startedAt = Date.now();
        const read = await readRecentHistory(channel, limit, pageDelayMs, since).finally(() => {
          this.#lastReadAt = Date.now();
        });
        hand(read, startedAt);
        logger.info(
          { channel: channel.id, messages: read.messages.length, complete: read.complete, key },
          'discord: back-filled a channel',
        );
      } catch (error) {
        logger.warn({ err: error, channel: channel.id }, 'discord: back-fill failed');
      } finally {
        this.#queued.delete(key);
      }
    });
    return true;
  }

  /** Resolves once every queued channel has been read and handed over. */
  idle(): Promise<void> {
    return this.#queue.idle();
  }
}
