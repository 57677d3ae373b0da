/**
 * @module The Discord interface's own state in the journal, so every replica reads the same: who opted out,
 * the channel rules `/memory channel allow|deny` set, the channels back-filled, the forgets that bar a
 * late re-delivery, the parent of each thread recorded from, and until when the gateway was last held.
 */

export type ChannelRule = 'allow' | 'deny';

/** A thread recorded from; `isPublic` is null when it was recorded before its kind was kept. */
export interface DiscordThread {
  readonly threadId: string;
  readonly parentId: string;
  readonly isPublic: boolean | null;
}

/** A confirmed `/memory forget-me` (kind `user`) or `forget-channel` (kind `channel`), and when it was made. */
export interface DiscordForgetMark {
  readonly kind: 'user' | 'channel';
  readonly id: string;
  readonly at: number;
}

/** Everything one bot's Discord interface keeps, as read at connect (a few rows per person and channel). */
export interface DiscordStateRows {
  readonly optedOut: readonly string[];
  readonly channelRules: readonly { readonly channelId: string; readonly rule: ChannelRule }[];
  readonly backfilled: readonly string[];
  readonly forgotten: readonly DiscordForgetMark[];
  readonly threads: readonly DiscordThread[];
  /** The last time a replica holding the gateway said it was connected (undefined: never). */
  readonly connectedUntil: number | undefined;
}

/**
 * Per-bot Discord state. Writes resolve once durable (SQLite fsyncs its WAL first; an opt-out is a promise
 * to a person), except inside a transaction, whose caller flushes after it.
 */
export interface JournalDiscord {
  readState(bot: string): Promise<DiscordStateRows>;
  /** Records the choice; resolves with whether it changed anything. */
  setOptedOut(bot: string, userId: string, optedOut: boolean, at: number): Promise<boolean>;
  setChannelRule(bot: string, channelId: string, rule: ChannelRule): Promise<void>;
  markBackfilled(bot: string, channelId: string, at: number): Promise<void>;
  /** Keeps the latest `at` of a kind and id. */
  noteForgotten(bot: string, kind: 'user' | 'channel', id: string, at: number): Promise<void>;
  /** Adds a thread, or sets its kind when now known (an unknown kind never overwrites a known one). */
  noteThread(bot: string, threadId: string, parentId: string, isPublic?: boolean): Promise<void>;
  /** Drops these threads and the threads whose parent is among `ids` (deleted channels). */
  dropThreads(bot: string, ids: readonly string[]): Promise<void>;
  /** Notes that the gateway was connected at `at` (Postgres: its own clock), replacing the last mark: the start of the gap a takeover back-fills. */
  markConnected(bot: string, at: number): Promise<void>;
}
