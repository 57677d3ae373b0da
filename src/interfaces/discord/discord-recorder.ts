/**
 * @module The recorder: keeps the pool in step with what Discord says happened. Messages it may keep are saved
 * (source `discord`), real edits rebuild their chunk, and deletes of every kind forget (tombstones). Events
 * are handled one at a time, in gateway order, so an edit never overtakes its message. (Past 300 lines: every
 * event kind and back-fill feed the one queue here; the decisions live beside it, e.g. gap-deletes.ts.)
 */
import { type Channel, type Client, Events, type Guild, type Message, type PartialMessage } from 'discord.js';
import type { DiscordConfig } from '../../config/config-types.js';
import type { Logger } from '../../logging/logger.js';
import { SerialQueue } from '../../runtime/serial-queue.js';
import { ChannelBackfill } from './channel-backfill.js';
import type { DiscordForget, DiscordMemory } from './discord-memory.js';
import type { DiscordState } from './discord-state.js';
import { canReadHistory, GapDeletes } from './gap-deletes.js';
import { cacheLinkedDiscordUsers, type LinkedDiscordUsers } from './linked-discord-users.js';
import { type MessageFacts, readMessageFacts } from './message-facts.js';
import { ProxyReposts } from './proxy-reposts.js';
import { readDeletePacket } from './read-delete-packet.js';
import { decideRecording, isPlaceRecorded, type RecordingRules } from './recording-rules.js';
import type { MarkupNames } from './rewrite-discord-markup.js';
import { toSaveMessage } from './to-save-message.js';

export interface DiscordRecorderOptions {
  readonly client: Client;
  readonly memory: DiscordMemory;
  readonly state: DiscordState;
  readonly config: DiscordConfig;
  readonly logger: Logger;
  /** How long a proxy's repost may follow a message (PluralKit answers within a second or two). Default 5000. */
  readonly proxyGraceMs?: number;
  /** The pause between two pages of back-fill. Default 1000. */
  readonly backfillPageDelayMs?: number;
  /** When the gateway was last connected (here before a restart, or elsewhere): back-filled from then on. */
  readonly gapSince?: number;
  /**
   * Whether the gateway lease is still this replica's by its local deadline. Once it is not, no event is handled
   * any more (another replica may be recording by now): what is queued or still arrives is dropped.
   */
  readonly leaseHeld?: () => boolean;
}

type Place = Parameters<typeof isPlaceRecorded>[0];

/** Message ids per forget: `POST /forget` takes at most 1000. */
const MAX_IDS_PER_FORGET = 1000;

export class DiscordRecorder {
  readonly #options: DiscordRecorderOptions;
  readonly #proxies: ProxyReposts;
  /** Events, back-filled messages and sends, handled one at a time in the order they came. */
  readonly #queue = new SerialQueue();
  readonly #held = new Set<Promise<void>>();
  readonly #backfill: ChannelBackfill;
  /** Events dropped since the lease ran out (logged once). */
  #dropped = 0;
  /** With a gap to read (`gapSince`), until its reads are decided. */
  readonly #gap: GapDeletes | undefined;
  /** The Discord users linked to a person (docs/people.md), read at most once a second. */
  readonly #linkedUsers: LinkedDiscordUsers;

  constructor(options: DiscordRecorderOptions) {
    this.#options = options;
    this.#proxies = new ProxyReposts(options.proxyGraceMs ?? 5000);
    this.#linkedUsers = cacheLinkedDiscordUsers(() => options.memory.linkedDiscordUserIds());
    this.#gap =
      options.gapSince === undefined
        ? undefined
        : new GapDeletes({
            memory: options.memory,
            logger: options.logger,
            graceMs: this.#proxies.graceMs,
            markupNames: () => this.#markupNames(this.rules()),
            // Gap reads are of guild channels and threads, read from the cache (a bot cannot list its DMs).
            forgetDeleted: (channelId, ids) => {
              const channel = options.client.channels.cache.get(channelId);
              const guildId = channel === undefined || channel.isDMBased() ? undefined : channel.guildId;
              return this.#onDelete(ids, this.#placeOf(channelId, guildId));
            },
          });
    this.#backfill = new ChannelBackfill({
      state: options.state,
      logger: options.logger,
      limit: options.config.backfill,
      pageDelayMs: options.backfillPageDelayMs ?? 1000,
      // Through the event queue, so back-filled and live messages are saved one at a time, in order, each by
      // the rules in force when it is saved (an opt-out made while the history was read applies to it).
      record: (messages, done) => {
        for (const message of messages) this.#enqueue(() => this.#onCreate(message));
        this.#enqueue(done);
      },
      recordGap: (channelId, read, range) => {
        // Deletes first (they decide which webhook posts are a proxy's reposts, not to be recorded), then the
        // messages, each its own event as above. A failed decision is logged and forgets nothing.
        // The permission is asked as the read ends and again at the decision: it must have held throughout.
        const readable = canReadHistory(options.client, channelId);
        let reposts: ReadonlySet<string> = new Set();
        this.#enqueue(async () => {
          const stillReadable = readable && canReadHistory(options.client, channelId);
          reposts = (await this.#gap?.forgetDeleted(channelId, read, range, stillReadable)) ?? reposts;
        });
        for (const message of read.messages)
          this.#enqueue(() => (reposts.has(message.id) ? Promise.resolve() : this.#onCreate(message)));
      },
    });
  }

  /** The rules in force now: the config's lists with `/memory channel` changes applied (a deny wins). */
  rules(): RecordingRules {
    const { config, state, client } = this.#options;
    const channels = new Set(config.channels);
    const denyChannels = new Set(config.denyChannels);
    for (const [channelId, rule] of state.channelRules()) {
      if (rule === 'allow') {
        channels.add(channelId);
        denyChannels.delete(channelId);
      } else denyChannels.add(channelId);
    }
    const ownUserId = client.user?.id ?? '';
    return {
      guilds: new Set(config.guilds),
      channels,
      denyChannels,
      dms: config.dms,
      otherBots: config.otherBots,
      selfUserId: config.selfUserId ?? ownUserId,
      ownUserId,
    };
  }

  /** Subscribes to the client's events. */
  attach(): void {
    const { client } = this.#options;
    client.on(Events.MessageCreate, (message) => this.#enqueue(() => this.#onCreate(message)));
    client.on(Events.MessageUpdate, (old, updated) => this.#enqueue(() => this.#onUpdate(old, updated)));
    // Every delete from the raw packet, cached channel or not (see read-delete-packet). Raw is emitted before
    // discord.js handles the packet, so the thread cache still holds a deleted message's thread.
    client.on(Events.Raw, (packet: { t?: unknown; d?: unknown }) => {
      const deleted = readDeletePacket(packet);
      if (deleted?.kind === 'messages') {
        const place = this.#placeOf(deleted.channelId, deleted.guildId);
        this.#enqueue(() => this.#onDelete(deleted.ids, place));
      } else if (deleted?.kind === 'thread') {
        this.#enqueue(async () => {
          await this.#forgetChannels([deleted.threadId], 'thread deleted');
          await this.#options.state.dropThreads([deleted.threadId]);
        });
      }
    });
    client.on(Events.ChannelDelete, (channel) => {
      const ids = this.channelWithThreads(channel.id);
      this.#enqueue(async () => {
        await this.#forgetChannels(ids, 'channel deleted');
        // Kept until the forget is done: it is what finds an archived thread's memories.
        await this.#options.state.dropThreads(ids);
      });
    });
    client.once(Events.ClientReady, (ready) => {
      const { gapSince } = this.#options;
      for (const guild of ready.guilds.cache.values()) {
        this.#backfillGuild(guild);
        if (gapSince !== undefined) this.#backfillGap(guild, gapSince);
      }
      // Every gap read is queued by now, and each queues its decision before this runs.
      void this.#backfill.idle().then(() => this.#enqueue(async () => this.#gap?.end()));
    });
    // A guild joined later (or back from an outage) is back-filled too: channels already done are skipped.
    client.on(Events.GuildCreate, (guild) => {
      if (client.isReady()) this.#backfillGuild(guild);
    });
    // guildDelete is a removal (kick, ban, leave); an outage is guildUnavailable, which never purges.
    client.on(Events.GuildDelete, (guild) =>
      this.#enqueue(async () => {
        if (this.#options.config.purgeOnLeave)
          await this.#forget({ guild_id: guild.id }, 'removed from guild');
      }),
    );
  }

  /**
   * A channel and its threads: a thread is its own channel in the journal, so whatever forgets a channel forgets
   * these, the threads in the cache now and those recorded from before (an archived thread is not cached).
   */
  channelWithThreads(channelId: string): string[] {
    const threads = this.#options.client.channels.cache.filter(
      (c) => c.isThread() && c.parentId === channelId,
    );
    return [...new Set([channelId, ...threads.keys(), ...this.#options.state.threadsOf(channelId)])];
  }

  /** The public threads recorded from, by parent channel (archived ones are not cached). */
  recordedPublicThreads(): ReadonlyMap<string, readonly string[]> {
    return this.#options.state.publicThreadsByParent();
  }

  /** Records a message the bot sent itself (a companion reply) at once, as the gateway's echo of it would. */
  recordSent(message: Message): Promise<void> {
    return this.#enqueue(() => this.#onCreate(message));
  }

  /**
   * Back-fills a channel just allowed (`/memory channel allow`) when `backfill` is set and it was never
   * back-filled; returns whether it was queued.
   */
  backfillChannel(channelId: string): boolean {
    const channel = this.#options.client.channels.cache.get(channelId);
    if (channel === undefined || channel.isDMBased()) return false;
    return this.#requestBackfill(channel);
  }

  /** Resolves once every event received so far is handled (tests, shutdown). */
  async idle(): Promise<void> {
    for (;;) {
      const enqueued = this.#queue.enqueued;
      await Promise.all([this.#queue.idle(), this.#backfill.idle(), ...this.#held]);
      if (enqueued === this.#queue.enqueued && this.#held.size === 0) return;
    }
  }

  /** Queues `task`; resolves once it is handled (a failure is logged: the events after it still are). */
  #enqueue(task: () => Promise<void>): Promise<void> {
    return this.#queue.enqueue(async () => {
      // Checked as each event's turn comes, not as it arrives: a frozen process may hold many past the deadline.
      if (this.#options.leaseHeld?.() === false) return this.#noteDropped();
      try {
        await task();
      } catch (error) {
        this.#options.logger.warn({ err: error }, 'discord: an event could not be recorded');
      }
    });
  }

  #noteDropped(): void {
    if (this.#dropped++ === 0)
      this.#options.logger.warn('discord: the gateway lease ran out here; events are no longer recorded');
  }

  async #record(facts: MessageFacts): Promise<void> {
    const { memory, state } = this.#options;
    const rules = this.rules();
    if (facts.webhookId !== undefined && isPlaceRecorded(facts, rules)) {
      if (this.#proxies.noteWebhookPost(facts.channelId, facts.content, Date.now())) return;
    }
    const decision = decideRecording(facts, rules, (userId) => state.isOptedOut(userId));
    const place = [facts.channelId, ...(facts.parentChannelId === undefined ? [] : [facts.parentChannelId])];
    if (!decision.record || state.wasForgotten(facts.authorId, place, facts.createdAt)) return;
    if (facts.parentChannelId !== undefined) {
      await state.noteThread(facts.channelId, facts.parentChannelId, facts.threadIsPublic);
    }
    await memory.save([toSaveMessage(facts, decision.asSelf, await this.#markupNames(rules))]);
    this.#gap?.noteRecorded(facts.id);
    this.#proxies.noteRecorded(facts.id, facts.channelId, facts.content, Date.now());
  }

  /**
   * A mention of an aliased or linked user stays `<@id>`: the chunk writer writes it under the alias or the
   * person's name, now and after a later rename (a display name written here could not be renamed).
   */
  async #markupNames(rules: RecordingRules): Promise<MarkupNames> {
    const { bot } = this.#options.memory;
    const linked = await this.#linkedUsers();
    return {
      aliasedUserIds: new Set([...Object.keys(bot.speakerAliases), ...linked]),
      selfUserId: rules.selfUserId,
      selfName: bot.selfSpeaker,
    };
  }

  async #onCreate(message: Message): Promise<void> {
    const facts = readMessageFacts(message);
    if (facts === undefined) return;
    // A create for a message already recorded is a re-delivery (after a restart the gateway may repeat one
    // from before an edit): it changes nothing. History read by back-fill carries its edits, marked edited.
    if (facts.editedAt === null && (await this.#options.memory.recordedAmong([facts.id])).size > 0) {
      // Seen here (recorded by an earlier connection): it existed then, and its delete arrives live.
      this.#gap?.noteRecorded(facts.id);
      return;
    }
    await this.#record(facts);
  }

  async #onUpdate(old: Message | PartialMessage, updated: Message | PartialMessage): Promise<void> {
    const facts = readMessageFacts(updated);
    // An unfurl (embeds added) arrives as an update with the text unchanged, or never marked edited.
    if (facts === undefined || facts.editedAt === null) return;
    if (!old.partial && old.content === facts.content) return;
    // Saving the same id with new text is an edit: the service rebuilds its chunk in place.
    await this.#record(facts);
  }

  /** Where a channel is, for the rules: a thread's parent from the cache, else as recorded before. */
  #placeOf(channelId: string, guildId: string | undefined): Place {
    const channel = this.#options.client.channels.cache.get(channelId);
    const parentChannelId = channel?.isThread()
      ? (channel.parentId ?? undefined)
      : this.#options.state.parentOf(channelId);
    return { channelId, parentChannelId, guildId, isDm: guildId === undefined };
  }

  /**
   * Deleted messages are forgotten where the rules record now (tombstoned even if not saved yet, so a back-fill
   * read meanwhile cannot bring one back), and anywhere else when they were recorded (a channel denied since).
   */
  async #onDelete(ids: readonly string[], place: Place): Promise<void> {
    const { memory } = this.#options;
    const known = isPlaceRecorded(place, this.rules()) ? undefined : await memory.recordedAmong(ids);
    const now: string[] = [];
    for (const id of known === undefined ? ids : ids.filter((found) => known.has(found))) {
      if (this.#proxies.wasProxied(id)) continue;
      if (!this.#proxies.isRecent(id, Date.now())) {
        now.push(id);
        continue;
      }
      // Recorded moments ago: a proxy may be about to repost it. Decide once the grace has passed.
      const held = new Promise<void>((resolve) => setTimeout(resolve, this.#proxies.graceMs)).then(() => {
        this.#held.delete(held);
        if (!this.#proxies.wasProxied(id)) {
          this.#enqueue(() => this.#forget({ message_ids: [id] }, 'message deleted'));
        }
      });
      this.#held.add(held);
    }
    const why = ids.length > 1 ? 'bulk delete' : 'message deleted';
    for (let start = 0; start < now.length; start += MAX_IDS_PER_FORGET) {
      await this.#forget({ message_ids: now.slice(start, start + MAX_IDS_PER_FORGET) }, why);
    }
  }

  /** Forgets every message recorded in these channels (or threads); a channel with none is left alone. */
  async #forgetChannels(channelIds: readonly string[], why: string): Promise<void> {
    for (const channelId of channelIds) {
      if ((await this.#options.memory.count({ channel_id: channelId })) > 0)
        await this.#forget({ channel_id: channelId }, why);
    }
  }

  #backfillGuild(guild: Guild): void {
    for (const channel of guild.channels.cache.values()) this.#requestBackfill(channel);
  }

  /** Queues the gap's read of each text channel and active thread recorded now (a bot cannot list its DMs). */
  #backfillGap(guild: Guild, since: number): void {
    const rules = this.rules();
    for (const channel of guild.channels.cache.values()) {
      if (!channel.isTextBased() || channel.isVoiceBased()) continue;
      const parentChannelId = channel.isThread() ? (channel.parentId ?? undefined) : undefined;
      const place = { channelId: channel.id, parentChannelId, guildId: guild.id, isDm: false };
      if (isPlaceRecorded(place, rules)) this.#backfill.requestGap(channel, since);
    }
  }

  /** Queues a guild text channel (not a thread, not voice) that the rules record now. */
  #requestBackfill(channel: Channel): boolean {
    if (!channel.isTextBased() || channel.isThread() || channel.isVoiceBased() || channel.isDMBased())
      return false;
    const place = { channelId: channel.id, guildId: channel.guildId, isDm: false };
    return isPlaceRecorded(place, this.rules()) && this.#backfill.request(channel);
  }

  async #forget(selector: DiscordForget, why: string): Promise<void> {
    const result = await this.#options.memory.forget(selector);
    this.#options.logger.info({ why, forgotten: result.messages_forgotten }, 'discord: forgot messages');
  }
}
