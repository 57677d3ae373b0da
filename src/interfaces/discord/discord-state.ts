/**
 * @module What the Discord interface must remember across restarts and replicas, kept in the journal
 * (through the service: src/journal/journal-discord.ts): who opted out of recording, the channel rules `/memory channel allow|deny` set, the
 * channels back-filled, the forgets that bar re-recording, and the parent of each thread recorded from
 * (Discord forgets archived threads' parents). Read at connect and answered from memory after (every message
 * asks); the holder of the gateway lease merges the journal's rows in again at each renewal, since a legacy
 * move or a late ex-holder may have written there too.
 */
import type { ChannelRule, DiscordStateStore, StoredDiscordState } from './discord-state-store.js';

export type { ChannelRule } from './discord-state-store.js';

interface ThreadFacts {
  readonly parentId: string;
  readonly isPublic: boolean | null;
}

/** One bot's state: reads are answered from memory, writes resolve once the journal holds them durably. */
export class DiscordState {
  readonly #journal: DiscordStateStore;
  readonly #bot: string;
  readonly #optedOut: Set<string>;
  readonly #rules: Map<string, ChannelRule>;
  readonly #backfilled: Set<string>;
  /** `user:<id>` or `channel:<id>` → the time of the latest such forget. */
  readonly #forgotten: Map<string, number>;
  readonly #threads: Map<string, ThreadFacts>;
  /** When a replica holding the gateway last said it was connected, as read at load (a takeover's gap start). */
  readonly connectedUntil: number | undefined;

  private constructor(journal: DiscordStateStore, bot: string, rows: StoredDiscordState) {
    this.#journal = journal;
    this.#bot = bot;
    this.#optedOut = new Set(rows.optedOut);
    this.#rules = new Map(rows.channelRules.map((r) => [r.channelId, r.rule]));
    this.#backfilled = new Set(rows.backfilled);
    this.#forgotten = new Map(rows.forgotten.map((f) => [`${f.kind}:${f.id}`, f.at]));
    this.#threads = new Map(rows.threads.map((t) => [t.threadId, t]));
    this.connectedUntil = rows.connectedUntil;
  }

  /** Reads `bot`'s state from the journal. */
  static async load(journal: DiscordStateStore, bot: string): Promise<DiscordState> {
    return new DiscordState(journal, bot, await journal.readState(bot));
  }

  /**
   * Merges the journal's rows into memory on the safe side: its opt-outs, deny rules, forgets and threads are
   * added (a rule only where memory has none, a deny always); nothing in memory is dropped. An opt-in made
   * elsewhere therefore waits for the next connect, while an opt-out made elsewhere applies within a renewal.
   */
  async refresh(): Promise<void> {
    const rows = await this.#journal.readState(this.#bot);
    for (const userId of rows.optedOut) this.#optedOut.add(userId);
    for (const { channelId, rule } of rows.channelRules) {
      if (rule === 'deny' || !this.#rules.has(channelId)) this.#rules.set(channelId, rule);
    }
    for (const { kind, id, at } of rows.forgotten) {
      const key = `${kind}:${id}`;
      this.#forgotten.set(key, Math.max(at, this.#forgotten.get(key) ?? at));
    }
    for (const thread of rows.threads) {
      if (!this.#threads.has(thread.threadId)) this.#threads.set(thread.threadId, thread);
    }
  }

  isOptedOut(userId: string): boolean {
    return this.#optedOut.has(userId);
  }

  /**
   * Records the choice; resolves with whether it changed anything. It applies at once (a message recorded
   * while the write is on its way already obeys it) and is undone in memory if the journal refuses it.
   */
  async setOptedOut(userId: string, optedOut: boolean, at: number): Promise<boolean> {
    const before = this.#optedOut.has(userId);
    if (optedOut) this.#optedOut.add(userId);
    else this.#optedOut.delete(userId);
    try {
      return await this.#journal.setOptedOut(this.#bot, userId, optedOut, at);
    } catch (error) {
      if (before) this.#optedOut.add(userId);
      else this.#optedOut.delete(userId);
      throw error;
    }
  }

  /** Sets a channel's rule, at once in memory and undone there if the journal refuses it. */
  async setChannelRule(channelId: string, rule: ChannelRule): Promise<void> {
    const before = this.#rules.get(channelId);
    this.#rules.set(channelId, rule);
    try {
      await this.#journal.setChannelRule(this.#bot, channelId, rule);
    } catch (error) {
      if (before === undefined) this.#rules.delete(channelId);
      else this.#rules.set(channelId, before);
      throw error;
    }
  }

  channelRules(): ReadonlyMap<string, ChannelRule> {
    return this.#rules;
  }

  hasBackfilled(channelId: string): boolean {
    return this.#backfilled.has(channelId);
  }

  /** Marked once a channel's back-fill completed, so it is read once (and again after a crash half-way). */
  async markBackfilled(channelId: string, at: number): Promise<void> {
    await this.#journal.markBackfilled(this.#bot, channelId, at);
    this.#backfilled.add(channelId);
  }

  /**
   * Remembers a confirmed `/memory forget-me` or `forget-channel`: a message of that person (or channel) written
   * before it is never recorded again, even when a back-fill or a re-delivered event brings it afterwards. It
   * bars in memory at once, and stays barred there even if the journal write fails (the safe side).
   */
  async noteForgotten(kind: 'user' | 'channel', id: string, at: number): Promise<void> {
    const key = `${kind}:${id}`;
    this.#forgotten.set(key, Math.max(at, this.#forgotten.get(key) ?? at));
    await this.#journal.noteForgotten(this.#bot, kind, id, at);
  }

  /**
   * Whether a message written at `createdAt` by `userId` in `channelIds` (its channel, and a thread's parent:
   * forgetting a channel covers its threads, those unknown at the time too) was covered by such a forget.
   */
  wasForgotten(userId: string, channelIds: readonly string[], createdAt: number): boolean {
    const covers = (key: string) => (this.#forgotten.get(key) ?? Number.NEGATIVE_INFINITY) >= createdAt;
    return covers(`user:${userId}`) || channelIds.some((id) => covers(`channel:${id}`));
  }

  /** Remembers a thread recorded from: deleting its parent channel forgets it too, cached or not. */
  async noteThread(threadId: string, parentId: string, isPublic?: boolean): Promise<void> {
    const known = this.#threads.get(threadId);
    // As the journal's upsert: the first parent stays, and an unknown kind never hides a known one.
    if (known !== undefined && (isPublic === undefined || known.isPublic === isPublic)) return;
    await this.#journal.noteThread(this.#bot, threadId, parentId, isPublic);
    this.#threads.set(threadId, { parentId: known?.parentId ?? parentId, isPublic: isPublic ?? null });
  }

  /** Drops deleted threads (a deleted channel's too): nothing of theirs is left to recall or to forget. */
  async dropThreads(ids: readonly string[]): Promise<void> {
    await this.#journal.dropThreads(this.#bot, ids);
    const gone = new Set(ids);
    for (const [threadId, thread] of this.#threads) {
      if (gone.has(threadId) || gone.has(thread.parentId)) this.#threads.delete(threadId);
    }
  }

  /**
   * The public threads recorded from, by parent channel: a reader of the parent may read them, cached or
   * archived (private ones, and those recorded before their kind was kept, are not listed).
   */
  publicThreadsByParent(): Map<string, string[]> {
    const byParent = new Map<string, string[]>();
    for (const [threadId, thread] of this.#threads) {
      if (thread.isPublic !== true) continue;
      const threads = byParent.get(thread.parentId);
      if (threads === undefined) byParent.set(thread.parentId, [threadId]);
      else threads.push(threadId);
    }
    return byParent;
  }

  parentOf(threadId: string): string | undefined {
    return this.#threads.get(threadId)?.parentId;
  }

  threadsOf(parentId: string): string[] {
    return [...this.#threads].filter(([, thread]) => thread.parentId === parentId).map(([id]) => id);
  }

  /** Notes that the gateway is connected now: a replica taking over later back-fills from about here. */
  markConnected(at: number): Promise<void> {
    return this.#journal.markConnected(this.#bot, at);
  }
}
