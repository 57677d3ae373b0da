/** @module Looks up the bot a request names, failing with the list of configured bots. */
import type { BotConfig, MemoryPoolConfig } from '../../config/config-types.js';
import { NotFoundError } from '../../errors/memory-pool-error.js';

export function requireBot(config: MemoryPoolConfig, name: string): BotConfig {
  const bot = Object.hasOwn(config.bots, name) ? config.bots[name] : undefined;
  if (bot === undefined) {
    const known = Object.keys(config.bots).join(', ');
    throw new NotFoundError(
      'unknown_bot',
      `bot: "${name}" is not configured; configured bots: ${known}`,
      'bot',
    );
  }
  return bot;
}
