/**
 * @module What the Discord interface keeps its state in and takes its gateway lease from: the journal's
 * `discord` and `leases` parts (src/journal/journal-discord.ts, journal.ts) fit these shapes, and the service
 * hands them over (a face reaches the journal only through what the composition root gives it).
 */

export type ChannelRule = 'allow' | 'deny';

/** One bot's stored state, as read at connect (JournalDiscord's DiscordStateRows). */
export interface StoredDiscordState {
  readonly optedOut: readonly string[];
  readonly channelRules: readonly { readonly channelId: string; readonly rule: ChannelRule }[];
  readonly backfilled: readonly string[];
  readonly forgotten: readonly {
    readonly kind: 'user' | 'channel';
    readonly id: string;
    readonly at: number;
  }[];
  readonly threads: readonly {
    readonly threadId: string;
    readonly parentId: string;
    readonly isPublic: boolean | null;
  }[];
  /** The last time a replica holding the gateway noted it was connected (undefined: never). */
  readonly connectedUntil: number | undefined;
}

/** Per-bot writes, each resolving once durable (see JournalDiscord for each one's rule). */
export interface DiscordStateStore {
  readState(bot: string): Promise<StoredDiscordState>;
  setOptedOut(bot: string, userId: string, optedOut: boolean, at: number): Promise<boolean>;
  setChannelRule(bot: string, channelId: string, rule: ChannelRule): Promise<void>;
  markBackfilled(bot: string, channelId: string, at: number): Promise<void>;
  noteForgotten(bot: string, kind: 'user' | 'channel', id: string, at: number): Promise<void>;
  noteThread(bot: string, threadId: string, parentId: string, isPublic?: boolean): Promise<void>;
  dropThreads(bot: string, ids: readonly string[]): Promise<void>;
  markConnected(bot: string, at: number): Promise<void>;
}

/** Named leases with an expiry (JournalLeases): the gateway's is `discord-gateway:<bot>`. */
export interface GatewayLeases {
  /** Takes or renews `name` for `holder` until now + ttlMs; false while another holds it. */
  acquire(name: string, holder: string, ttlMs: number, now: number): Promise<boolean>;
  release(name: string, holder: string): Promise<void>;
}
