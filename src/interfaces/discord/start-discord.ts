/**
 * @module Connects the configured bot account: a discord.js Client with the intents and partials the recorder
 * needs, the recorder and the /memory commands attached, logged in. Start-up fails with the fix when
 * Discord refuses (a bad token, the Message Content intent not enabled).
 */
import { once } from 'node:events';
import { Client, Events, GatewayIntentBits, Partials } from 'discord.js';
import type { DiscordConfig } from '../../config/config-types.js';
import type { Logger } from '../../logging/logger.js';
import { attachCompanion } from './companion/companion-responder.js';
import { explainLoginFailure } from './discord-login-error.js';
import type { DiscordMemory } from './discord-memory.js';
import { DiscordRecorder } from './discord-recorder.js';
import { DiscordState } from './discord-state.js';
import type { DiscordStateStore } from './discord-state-store.js';
import { attachMemoryCommands } from './memory-commands/attach-memory-commands.js';

export interface StartDiscordOptions {
  readonly config: DiscordConfig;
  readonly memory: DiscordMemory;
  /** Where the Discord state (opt-outs, channel rules, ...) is kept: the journal's, shared by every replica. */
  readonly store: DiscordStateStore;
  readonly logger: Logger;
  /** Discord's REST base, e.g. a local stand-in in tests. Default Discord's own. */
  readonly restApi?: string;
  readonly proxyGraceMs?: number;
  readonly backfillPageDelayMs?: number;
  /** How often a code `/memory link` gave is checked, to tell its asker once it is said (default 5 s). */
  readonly linkCodePollMs?: number;
  /**
   * Whether this replica's gateway lease is still valid by its local deadline (DiscordGatewayLease): checked
   * before each event is recorded or forgotten. Default: always (one process, no lease).
   */
  readonly leaseHeld?: () => boolean;
}

export interface DiscordConnection {
  readonly client: Client;
  readonly recorder: DiscordRecorder;
  readonly state: DiscordState;
  /** Resolves once every event so far is recorded, every companion reply sent and /memory registered. */
  idle(): Promise<void>;
  /**
   * Disconnects. By default after the companion's replies in flight are sent; `atOnce` (the gateway lease
   * lost: another replica may be connecting) closes the gateway first, so no further event is taken.
   */
  close(options?: { atOnce?: boolean }): Promise<void>;
}

/**
 * How far before the last "connected" mark a gap back-fill starts: the marks are seconds apart, and what the
 * gone connection had received but not yet saved is read again (recorded ids are skipped).
 */
const GAP_OVERLAP_MS = 60_000;

/**
 * Guilds: the channel and thread cache and guild removals; GuildMessages and DirectMessages: the messages;
 * MessageContent (privileged): their text. Partials.Channel is needed to receive DMs at all, Partials.Message
 * to see edits and deletes of messages from before a restart.
 */
const INTENTS = [
  GatewayIntentBits.Guilds,
  GatewayIntentBits.GuildMessages,
  GatewayIntentBits.DirectMessages,
  GatewayIntentBits.MessageContent,
];

export async function startDiscord(options: StartDiscordOptions): Promise<DiscordConnection> {
  const { config, logger } = options;
  const state = await DiscordState.load(options.store, options.memory.bot.name);
  const client = new Client({
    intents: INTENTS,
    partials: [Partials.Channel, Partials.Message],
    ...(options.restApi === undefined ? {} : { rest: { api: options.restApi } }),
  });
  const recorder = new DiscordRecorder({
    client,
    memory: options.memory,
    state,
    config,
    logger,
    ...(options.proxyGraceMs === undefined ? {} : { proxyGraceMs: options.proxyGraceMs }),
    ...(options.backfillPageDelayMs === undefined
      ? {}
      : { backfillPageDelayMs: options.backfillPageDelayMs }),
    ...(options.leaseHeld === undefined ? {} : { leaseHeld: options.leaseHeld }),
    ...(state.connectedUntil === undefined ? {} : { gapSince: state.connectedUntil - GAP_OVERLAP_MS }),
  });
  recorder.attach();
  const commands = attachMemoryCommands({
    client,
    memory: options.memory,
    state,
    config,
    recorder,
    logger,
    ...(options.linkCodePollMs === undefined ? {} : { linkCodePollMs: options.linkCodePollMs }),
  });
  let companion: { idle(): Promise<void> } | undefined;
  try {
    companion =
      config.companion === undefined
        ? undefined
        : attachCompanion({
            client,
            companion: config.companion,
            recallScope: config.recallScope,
            memory: options.memory,
            recorder,
            logger,
          });
  } catch (error) {
    await client.destroy();
    throw error;
  }
  let closeCode: number | undefined;
  client.on(Events.ShardDisconnect, (event) => {
    closeCode = event.code;
    logger.error({ code: event.code }, 'discord: the gateway closed the connection for good');
  });
  client.on(Events.Error, (error) => logger.warn({ err: error }, 'discord: client error'));
  const idle = async () => {
    await commands.idle();
    await companion?.idle();
    await recorder.idle();
  };
  const close = async ({ atOnce = false } = {}) => {
    commands.stop();
    if (atOnce) await client.destroy();
    await companion?.idle();
    await client.destroy();
    await recorder.idle();
  };
  try {
    const ready = once(client, Events.ClientReady);
    // The token is handed to discord.js only; it is never logged.
    await client.login(config.token);
    await ready;
  } catch (error) {
    await close();
    throw explainLoginFailure(error, closeCode);
  }
  logger.info({ user: client.user?.tag, guilds: client.guilds.cache.size }, 'discord: connected');
  return { client, recorder, state, idle, close };
}
