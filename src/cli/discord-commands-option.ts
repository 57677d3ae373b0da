/** @module `serve --discord-commands`: where `/memory` is registered, overriding the config's `discord.commands`. */
import { Option } from 'commander';
import type { DiscordConfig, MemoryPoolConfig } from '../config/config-types.js';
import { ConfigError } from '../errors/memory-pool-error.js';

/** The same three answers the config key takes. */
export const DISCORD_COMMAND_MODES = [
  'guild',
  'global',
  'off',
] as const satisfies readonly DiscordConfig['commands'][];

export function discordCommandsOption(): Option {
  return new Option(
    '--discord-commands <where>',
    'register /memory in each guild (at once), globally (Discord takes up to an hour) or off; overrides discord.commands',
  ).choices(DISCORD_COMMAND_MODES);
}

/**
 * The config with the flag applied (a new frozen object: the loaded one stays as it is). The flag without a
 * `discord:` section is a mistake worth naming rather than a silent no-op.
 */
export function applyDiscordCommandsFlag(
  config: MemoryPoolConfig,
  commands: DiscordConfig['commands'] | undefined,
): MemoryPoolConfig {
  if (commands === undefined) return config;
  if (config.discord === undefined) {
    throw new ConfigError(
      'discord',
      '--discord-commands needs a discord: section (with the bot token) in the config; add one or drop the flag',
    );
  }
  return Object.freeze({ ...config, discord: Object.freeze({ ...config.discord, commands }) });
}
