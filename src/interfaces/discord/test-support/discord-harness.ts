/**
 * @module A real memory service with `discord:` configured, its discord.js Client logged in to a local fake
 * Discord; `send` dispatches a gateway packet and waits until the recorder has handled it.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Events } from 'discord.js';
import type { BotConfig, DiscordConfig, MemoryPoolConfig } from '../../../config/config-types.js';
import { startTestService, type TestService } from '../../../service/test-support/start-test-service.js';
import { type TestBotOverrides, testBot } from '../../../config/test-support/test-bot.js';
import type { DiscordConnection } from '../start-discord.js';
import { type FakeDiscord, startFakeDiscord } from './fake-discord.js';

export const BOT_USER = { id: '900000000000000001', username: 'mythos-bot' };
export const GUILD = '100000000000000001';
export const GENERAL = '200000000000000001';
export const OFFTOPIC = '200000000000000002';
export const SECRET = '200000000000000003';
export const HELEN = { id: '500000000000000001', username: 'helen', global_name: 'Helen' };
export const SAM = { id: '500000000000000002', username: 'sam', global_name: 'Sam' };
export const DM_CHANNEL = '300000000000000001';

/** Discord's epoch: a snowflake's top bits are milliseconds since then. */
const DISCORD_EPOCH = 1_420_070_400_000n;
let lastMessageId = 0n;
/** A fresh message id made as Discord makes one now, so its `createdTimestamp` is the present. */
export function newMessageId(): string {
  const now = (BigInt(Date.now()) - DISCORD_EPOCH) << 22n;
  lastMessageId = now > lastMessageId ? now : lastMessageId + 1n;
  return String(lastMessageId);
}

/** A text channel of the test guild, as GUILD_CREATE lists it. */
export const textChannel = (id: string, name: string, extra: Record<string, unknown> = {}) => ({
  id,
  type: 0,
  name,
  guild_id: GUILD,
  position: 0,
  permission_overwrites: [],
  ...extra,
});

/** Bits of Discord's permissions the tests set. */
export const VIEW_CHANNEL = 1n << 10n;
const SEND_MESSAGES = 1n << 11n;
const READ_MESSAGE_HISTORY = 1n << 16n;

/** A role as GUILD_CREATE lists it; a guild's `@everyone` role has the guild's id. */
export const rolePayload = (id: string, name: string, permissions: bigint, position = 0) => ({
  id,
  name,
  permissions: String(permissions),
  position,
  color: 0,
  hoist: false,
  managed: false,
  mentionable: false,
  flags: 0,
});

/** A guild's `@everyone` role, with Discord's usual rights to read and write. */
export const everyoneRole = (guildId: string) =>
  rolePayload(guildId, '@everyone', VIEW_CHANNEL | SEND_MESSAGES | READ_MESSAGE_HISTORY);

/** A GUILD_CREATE payload: #general, #offtopic, #secret and a thread under #general. */
export function guildPayload(): Record<string, unknown> {
  return {
    id: GUILD,
    name: 'Lisbon friends',
    unavailable: false,
    owner_id: HELEN.id,
    // Every real server has @everyone; discord.js computes no permission without it.
    roles: [everyoneRole(GUILD)],
    emojis: [],
    features: [],
    // Discord always sends the bot's own member: its permissions (e.g. to read a channel's history) need it.
    members: [{ user: BOT_USER, roles: [], joined_at: new Date().toISOString(), deaf: false, mute: false }],
    channels: [
      textChannel(GENERAL, 'general'),
      textChannel(OFFTOPIC, 'offtopic'),
      textChannel(SECRET, 'secret'),
    ],
    threads: [],
    member_count: 3,
    joined_at: new Date().toISOString(),
    large: false,
    presences: [],
    voice_states: [],
    stickers: [],
    stage_instances: [],
    guild_scheduled_events: [],
    soundboard_sounds: [],
  };
}

/** A thread channel payload (THREAD_CREATE) under `parentId`. */
export const threadPayload = (id: string, parentId: string) => ({
  id,
  type: 11,
  name: 'a thread',
  guild_id: GUILD,
  parent_id: parentId,
  owner_id: HELEN.id,
  thread_metadata: {
    archived: false,
    auto_archive_duration: 1440,
    archive_timestamp: new Date().toISOString(),
    locked: false,
  },
  message_count: 0,
  member_count: 1,
});

export interface MessageOptions {
  readonly id?: string;
  readonly channelId?: string;
  /** null: a DM. */
  readonly guildId?: string | null;
  readonly author?: { id: string; username: string; global_name?: string | null; bot?: boolean };
  readonly nick?: string;
  /** The author's role ids in the guild. */
  readonly roles?: readonly string[];
  readonly content: string;
  readonly webhookId?: string;
  readonly type?: number;
  readonly editedAt?: string | null;
  readonly mentions?: readonly { id: string; username: string; global_name?: string | null }[];
}

/** A MESSAGE_CREATE (or, with editedAt, MESSAGE_UPDATE) payload. */
export function messagePayload(options: MessageOptions): Record<string, unknown> {
  const guildId = options.guildId === undefined ? GUILD : options.guildId;
  const author = options.author ?? HELEN;
  return {
    id: options.id ?? newMessageId(),
    channel_id: options.channelId ?? (guildId === null ? DM_CHANNEL : GENERAL),
    ...(guildId === null ? {} : { guild_id: guildId }),
    author: { discriminator: '0', avatar: null, global_name: null, ...author },
    ...(guildId === null || options.webhookId
      ? {}
      : {
          member: {
            nick: options.nick ?? null,
            roles: options.roles ?? [],
            joined_at: new Date().toISOString(),
            deaf: false,
            mute: false,
          },
        }),
    ...(options.webhookId ? { webhook_id: options.webhookId } : {}),
    content: options.content,
    timestamp: new Date().toISOString(),
    edited_timestamp: options.editedAt ?? null,
    tts: false,
    mention_everyone: false,
    mentions: (options.mentions ?? []).map((user) => ({
      discriminator: '0',
      avatar: null,
      global_name: null,
      ...user,
    })),
    mention_roles: [],
    attachments: [],
    embeds: [],
    pinned: false,
    type: options.type ?? 0,
  };
}

export interface DiscordHarness {
  readonly service: TestService;
  readonly fake: FakeDiscord;
  readonly discord: DiscordConnection;
  /** Dispatches one packet and waits until the client and the recorder have handled it. */
  send(t: string, d: unknown): Promise<void>;
  /** Answers the bot's edits of its deferred replies with a message, as Discord does. */
  answerReplyEdits(): void;
  /** Answers the bot's posts in any channel with the message it sent, as Discord does. */
  answerChannelSends(): void;
  /** Drops a channel or thread from discord.js's caches, as a restart does with an archived thread. */
  evictChannel(id: string): void;
  /** Chunks everything journaled, so recall sees it. */
  flush(): Promise<void>;
  /** The recalled chunk texts for a query, as /retrieve answers them. */
  recall(query: string, extra?: Record<string, unknown>): Promise<string[]>;
  close(): Promise<void>;
}

/** A `discord:` section as the schema completes it, recording #general only. */
export function testDiscordConfig(overrides: Partial<DiscordConfig> = {}): DiscordConfig {
  return {
    token: 'fake-token',
    guilds: [],
    channels: [GENERAL],
    denyChannels: [],
    dms: false,
    otherBots: 'none',
    purgeOnLeave: false,
    backfill: 0,
    commands: 'guild',
    recallScope: 'guild',
    ...overrides,
  };
}

export async function startDiscordHarness(
  discord: Partial<DiscordConfig> = {},
  options: {
    proxyGraceMs?: number;
    speakerAliases?: Record<string, string>;
    /** Set up the fake's REST answers before the client logs in (e.g. history for back-fill). */
    prepare?: (fake: FakeDiscord) => void;
    /** Replaces parts of the guild's GUILD_CREATE (e.g. roles, channels with permission overwrites). */
    guild?: Record<string, unknown>;
    /** The data folder of a service stopped before (restart tests). */
    dir?: string;
    /** Changes to the bot `mythos` (e.g. its recall scope). */
    bot?: TestBotOverrides;
    /** Bots beside `mythos` (Discord records for `mythos`, the first). */
    otherBots?: readonly BotConfig[];
    /** The rest of the config (e.g. `apiKeys`, a Postgres `journal`). */
    config?: Partial<MemoryPoolConfig>;
  } = {},
): Promise<DiscordHarness> {
  const fake = await startFakeDiscord({
    botUser: BOT_USER,
    guilds: [{ ...guildPayload(), ...options.guild }],
  });
  options.prepare?.(fake);
  const config = testDiscordConfig(discord);
  const service = await startTestService({
    bots: [
      testBot('mythos', {
        speakerAliases: options.speakerAliases ?? {},
        retrieve: { limit: 20, scoreThreshold: -1, scope: 'global' },
        ...options.bot,
      }),
      ...(options.otherBots ?? []),
    ],
    config: { ...options.config, discord: config },
    ...(options.dir === undefined ? {} : { dir: options.dir }),
    discord: {
      restApi: fake.restBase,
      proxyGraceMs: options.proxyGraceMs ?? 300,
      backfillPageDelayMs: 5,
      linkCodePollMs: 50,
    },
  });
  const connection = service.discord!;
  await connection.idle();
  const seen = new Set<number>();
  const waiting = new Map<number, () => void>();
  connection.client.on(Events.Raw, (packet: { s?: number }) => {
    if (packet.s === undefined) return;
    seen.add(packet.s);
    waiting.get(packet.s)?.();
  });
  const send = async (t: string, d: unknown) => {
    const sequence = await fake.dispatch(t, d);
    if (!seen.has(sequence)) await new Promise<void>((resolve) => waiting.set(sequence, resolve));
    waiting.delete(sequence);
    await nextTurn();
    await connection.idle();
  };
  return {
    service,
    fake,
    discord: connection,
    send,
    answerReplyEdits: () =>
      fake.respond((call) =>
        call.method === 'PATCH' && call.path.startsWith('/webhooks/')
          ? {
              body: messagePayload({
                content: (call.body as { content?: string }).content ?? '',
                author: { ...BOT_USER, bot: true },
              }),
            }
          : undefined,
      ),
    answerChannelSends: () =>
      fake.respond((call) => {
        const channelId = /^\/channels\/(\d+)\/messages$/.exec(call.path)?.[1];
        return call.method === 'POST' && channelId !== undefined
          ? {
              body: messagePayload({
                channelId,
                ...(channelId === DM_CHANNEL ? { guildId: null } : {}),
                content: (call.body as { content?: string }).content ?? '',
                author: { ...BOT_USER, bot: true },
              }),
            }
          : undefined;
      }),
    evictChannel: (id) => {
      connection.client.channels.cache.delete(id);
      connection.client.guilds.cache.get(GUILD)?.channels.cache.delete(id);
    },
    flush: async () => {
      await service.writer.runOnce({ flush: true });
    },
    recall: async (query, extra = {}) => {
      const answer = await service.post('/retrieve', { bot: 'mythos', query_text: query, ...extra });
      return (answer.json.hits as { text: string }[]).map((hit) => hit.text);
    },
    close: async () => {
      await service.close();
      await fake.close();
    },
  };
}

/**
 * Records one message in `parentId`, one in a thread under it and one in a second thread that is then evicted
 * (archived, from before a restart): everything a forget of the channel must reach. Texts in that order.
 */
export async function recordChannelWithThreads(
  h: DiscordHarness,
  parentId: string,
  [cached, archived]: readonly [string, string],
  texts: readonly [string, string, string],
): Promise<void> {
  await h.send('THREAD_CREATE', threadPayload(cached, parentId));
  await h.send('THREAD_CREATE', threadPayload(archived, parentId));
  for (const [index, channelId] of [parentId, cached, archived].entries())
    await h.send('MESSAGE_CREATE', messagePayload({ channelId, content: texts[index]! }));
  await h.flush();
}
