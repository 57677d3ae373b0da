/**
 * @module Registers `/memory` (in each guild at once, or globally, or not at all: `discord.commands`) and
 * routes its interactions and confirmation buttons to their handlers. `off` changes nothing on Discord:
 * another instance may be answering the registrations there.
 */
import { type Client, Events, MessageFlags } from 'discord.js';
import type { DiscordConfig } from '../../../config/config-types.js';
import type { Logger } from '../../../logging/logger.js';
import type { DiscordMemory } from '../discord-memory.js';
import type { DiscordRecorder } from '../discord-recorder.js';
import type { DiscordState } from '../discord-state.js';
import type { CommandContext } from './command-context.js';
import { handleForgetButton, isForgetButton } from './confirm-forget.js';
import { handleMemoryCommand } from './handle-memory-command.js';
import { createLinkCodeWatches, LINK_CODE_POLL_MS } from './link-code-watches.js';
import { buildMemoryCommand, MEMORY_COMMAND } from './memory-command-definition.js';

type Commands = NonNullable<Client['application']>['commands'];

export interface AttachMemoryCommandsOptions {
  readonly client: Client;
  readonly memory: DiscordMemory;
  readonly state: DiscordState;
  readonly config: DiscordConfig;
  readonly recorder: DiscordRecorder;
  readonly logger: Logger;
  /** How often a code `/memory link` gave is checked (default LINK_CODE_POLL_MS; tests: less). */
  readonly linkCodePollMs?: number;
}

/** What is attached: `idle` resolves once every registration started so far has been answered. */
export interface AttachedMemoryCommands {
  idle(): Promise<void>;
  /** Stops following link codes (the connection closes). */
  stop(): void;
}

export function attachMemoryCommands(options: AttachMemoryCommandsOptions): AttachedMemoryCommands {
  const { client, config, logger } = options;
  const linkCodes = createLinkCodeWatches(options.linkCodePollMs ?? LINK_CODE_POLL_MS, logger);
  const context: CommandContext = {
    ...options,
    linkCodes,
    rules: () => options.recorder.rules(),
    backfillChannel: (channelId) => options.recorder.backfillChannel(channelId),
    channelWithThreads: (channelId) => options.recorder.channelWithThreads(channelId),
  };
  const definition = buildMemoryCommand();
  const pending = new Set<Promise<unknown>>();
  const track = (
    what: string,
    guildId: string | undefined,
    work: (commands: Commands) => Promise<unknown>,
  ) => {
    const commands = client.application?.commands;
    if (commands === undefined) return;
    const call = work(commands)
      .catch((error: unknown) => logger.warn({ err: error, guildId }, `discord: could not ${what} /memory`))
      .finally(() => pending.delete(call));
    pending.add(call);
  };
  const register = (guildId?: string) =>
    track('register', guildId, (commands) =>
      guildId === undefined ? commands.set([definition]) : commands.set([definition], guildId),
    );
  // Registered globally, a /memory left in a guild from `commands: guild` would show twice there. Only that
  // one command is removed: whatever else the application registered in the guild is not memory-pool's.
  const unregisterStale = (guildId: string) =>
    track('remove the per-guild', guildId, async (commands) => {
      for (const command of (await commands.fetch({ guildId })).values()) {
        if (command.name === MEMORY_COMMAND) await commands.delete(command.id, guildId);
      }
    });
  const setUp = (guildId: string) => {
    if (config.commands === 'guild') register(guildId);
    else if (config.commands === 'global') unregisterStale(guildId);
  };

  client.once(Events.ClientReady, (ready) => {
    if (config.commands === 'global') register();
    for (const guildId of ready.guilds.cache.keys()) setUp(guildId);
  });
  // A guild joined later is set up at once too.
  client.on(Events.GuildCreate, (guild) => {
    if (client.isReady()) setUp(guild.id);
  });

  client.on(Events.InteractionCreate, (interaction) => {
    const run = async () => {
      if (interaction.isChatInputCommand() && interaction.commandName === MEMORY_COMMAND) {
        await handleMemoryCommand(interaction, context);
      } else if (interaction.isButton() && isForgetButton(interaction.customId)) {
        await handleForgetButton(interaction, context);
      }
    };
    run().catch(async (error: unknown) => {
      logger.warn({ err: error }, 'discord: a /memory command failed');
      if (!interaction.isRepliable()) return;
      const content = 'memory-pool could not do that just now; try again in a moment.';
      const answer =
        interaction.deferred || interaction.replied
          ? interaction.editReply(content)
          : interaction.reply({ content, flags: MessageFlags.Ephemeral });
      await answer.catch(() => undefined);
    });
  });
  return { idle: async () => void (await Promise.all(pending)), stop: () => linkCodes.stop() };
}
