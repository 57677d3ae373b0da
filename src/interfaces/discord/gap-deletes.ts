/**
 * @module What a connection's gap reads tell about deletes: after a complete read of a channel, the messages
 * recorded there within the read's range that the history no longer holds were deleted while no replica was
 * connected; the recorder forgets them as it forgets a MESSAGE_DELETE. A read cut at GAP_LIMIT tells nothing.
 */
import { type Client, type Message, PermissionFlagsBits } from 'discord.js';
import type { Logger } from '../../logging/logger.js';
import type { GapRange } from './channel-backfill.js';
import type { DiscordMemory, RecordedMessage } from './discord-memory.js';
import { findGapDeletes } from './find-gap-deletes.js';
import { readMessageFacts } from './message-facts.js';
import type { HistoryRead } from './read-recent-history.js';
import { type MarkupNames, rewriteDiscordMarkup } from './rewrite-discord-markup.js';

export interface GapDeletesOptions {
  readonly memory: DiscordMemory;
  readonly logger: Logger;
  /** The proxy-repost grace (proxy-reposts.ts). */
  readonly graceMs: number;
  /** How the recorder writes markup now (a repost's text is compared with a recorded text). */
  readonly markupNames: () => Promise<MarkupNames>;
  /** Forgets deleted ids of a channel by the recorder's delete path (the proxy rule, the place's rules). */
  readonly forgetDeleted: (channelId: string, ids: readonly string[]) => Promise<void>;
}

/** More than this many gap deletes that are every recorded message of the read's range are refused. */
const MAX_WHOLE_RANGE_DELETES = 3;

/**
 * Whether the bot may read `channelId`'s history now: View Channel and Read Message History (a thread's are its
 * parent's). Without the latter Discord answers a history read with 200 and no message, which looks complete
 * (review s26, 1); a channel or member not cached cannot be told, so it may not.
 */
export function canReadHistory(client: Client, channelId: string): boolean {
  const channel = client.channels.cache.get(channelId);
  if (channel === undefined || channel.isDMBased() || client.user === null) return false;
  const permissions = channel.permissionsFor(client.user);
  return permissions?.has(PermissionFlagsBits.ViewChannel | PermissionFlagsBits.ReadMessageHistory) ?? false;
}

/** One connection's: created with it when it has a gap to read, ended once every gap read is decided. */
export class GapDeletes {
  readonly #options: GapDeletesOptions;
  /**
   * The ids this connection recorded. A gap read compares the history with what was recorded before it began;
   * one recorded here may postdate the read by Discord's clock (and its delete arrives live), so its absence
   * from the read says nothing.
   */
  readonly #recordedHere = new Set<string>();
  #ended = false;

  constructor(options: GapDeletesOptions) {
    this.#options = options;
  }

  /** A message this connection recorded (from any event, until the gap reads are decided). */
  noteRecorded(id: string): void {
    if (!this.#ended) this.#recordedHere.add(id);
  }

  /** Every gap read is decided: nothing more to note. */
  end(): void {
    this.#ended = true;
    this.#recordedHere.clear();
  }

  /**
   * Forgets what `read` shows deleted in `channelId`; answers the read's webhook posts that repost a kept
   * original (a proxy's), which are not to be recorded. Forgets nothing after an incomplete read, nor unless
   * `readable` (the bot may read the channel's history, see canReadHistory), nor when the read would forget
   * every message recorded in its range and more than a few (refused and logged).
   */
  async forgetDeleted(
    channelId: string,
    read: HistoryRead,
    range: GapRange,
    readable: boolean,
  ): Promise<ReadonlySet<string>> {
    const { memory, logger } = this.#options;
    if (!read.complete || !readable) {
      logger.warn(
        { channel: channelId, messages: read.messages.length, complete: read.complete, readable },
        read.complete
          ? 'discord: the bot may not read the history of this channel: messages deleted meanwhile stay recorded'
          : 'discord: the gap read was cut at its limit: messages deleted meanwhile in this channel stay recorded',
      );
      return new Set();
    }
    const names = await this.#options.markupNames();
    const recorded = (await memory.recordedInChannel(channelId, range.since, range.until)).filter(
      isRecorderRow,
    );
    const { deleted, reposts } = findGapDeletes({
      channelId,
      recorded,
      read: read.messages.map((message) => toGapMessage(message, names)),
      graceMs: this.#options.graceMs,
      recordedHere: (id) => this.#recordedHere.has(id),
    });
    const compared = recorded.filter((m) => !this.#recordedHere.has(m.id)).length;
    if (deleted.length > MAX_WHOLE_RANGE_DELETES && deleted.length === compared) {
      // Everything said there lately, gone: far likelier a read that saw nothing (a permission Discord answers
      // with an empty page, an outage) than a purge; a false forget is the worst outcome, so nothing is.
      // The ids let an operator forget them by hand if they really were purged (nothing checks them again).
      logger.warn(
        { channel: channelId, deleted: deleted.length, read: read.messages.length, messageIds: deleted },
        'discord: the gap read would forget every message recorded in its range: refused, nothing forgotten',
      );
      return reposts;
    }
    if (deleted.length > 0) {
      logger.info(
        { channel: channelId, deleted: deleted.length },
        'discord: messages deleted during the gap',
      );
      await this.#options.forgetDeleted(channelId, deleted);
    }
    return reposts;
  }
}

/** A read message as findGapDeletes sees it: a webhook post with its text as the recorder would save it. */
function toGapMessage(message: Message, names: MarkupNames) {
  if (message.webhookId === null) return { id: message.id, createdAt: message.createdTimestamp };
  // A webhook post without text to save (an attachment only) still keeps an original it may repost.
  const facts = readMessageFacts(message);
  const webhookText = facts === undefined ? '' : rewriteDiscordMarkup(facts, names);
  return { id: message.id, createdAt: message.createdTimestamp, webhookText };
}

/** Discord's epoch: a snowflake's top bits are milliseconds since then. */
const DISCORD_EPOCH = 1_420_070_400_000n;

/**
 * Whether a row of source `discord` is one the recorder wrote: its id a snowflake whose time is the row's `ts`
 * (toSaveMessage saves `createdTimestamp`, edits keep it). Rows other clients saved under that source (`/save`
 * with `defaultSource: discord`, a reply id like `<id>-2`, a summary) were never messages of the channel: their
 * absence from its history says nothing, and they are never compared (review s26, 4).
 */
function isRecorderRow(row: RecordedMessage): boolean {
  if (!/^\d{15,20}$/.test(row.id)) return false;
  return Number((BigInt(row.id) >> 22n) + DISCORD_EPOCH) === row.ts;
}
