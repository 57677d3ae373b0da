/**
 * @module DiscordMemory inside `memory-pool serve`: the service's own save, forget and recall, called
 * directly (no HTTP hop, no API key to manage) but through the same functions the routes run.
 */
import type { Principal } from '../../auth/api-key-auth.js';
import type { BotConfig } from '../../config/config-types.js';
import { type AcceptSaveDeps, acceptSave } from '../../ingest/accept-save.js';
import { readBotStats } from '../../maintenance/read-bot-stats.js';
import type { PointStore } from '../../store/point-store.js';
import type { ForgetRequest, ForgetResponse } from '../../wire/forget-request.js';
import type { RetrieveRequest, RetrieveResponse } from '../../wire/retrieve-request.js';
import { type ForgetPermissions, forgetPermissions } from '../../auth/forget-permissions.js';
import type { MessageMatch } from '../../journal/forget-journal.js';
import type { DiscordForget, DiscordMemory } from './discord-memory.js';
import { DISCORD_SOURCE } from './to-save-message.js';

/**
 * The Discord interface acts as a key that may save, recall and forget only as the `discord` source for its
 * one bot: its forgets never reach what SillyTavern, MCP or another client saved. Audited as "discord".
 */
function discordPrincipal(bot: string): Principal {
  return {
    kind: 'key',
    // Never matched against a presented key: the interface runs inside the service.
    key: {
      name: DISCORD_SOURCE,
      key: '',
      bots: [bot],
      sources: [DISCORD_SOURCE],
      scopes: ['save', 'retrieve', 'forget'],
    },
  };
}

function toJournalSelector(selector: Exclude<DiscordForget, { message_ids: string[] }>): MessageMatch {
  if ('discord_user_id' in selector) return { field: 'userId', value: selector.discord_user_id };
  if ('channel_id' in selector) return { field: 'channelId', value: selector.channel_id };
  return { field: 'guildId', value: selector.guild_id };
}

/** The service's own operations the interface calls (the composition root passes its ServiceDeps). */
export interface InProcessMemoryDeps extends AcceptSaveDeps {
  readonly store: PointStore;
  forget(bot: BotConfig, request: ForgetRequest, permissions: ForgetPermissions): Promise<ForgetResponse>;
  retrieve(bot: BotConfig, request: RetrieveRequest): Promise<RetrieveResponse>;
}

export function createInProcessDiscordMemory(deps: InProcessMemoryDeps, bot: BotConfig): DiscordMemory {
  const permissions = forgetPermissions(discordPrincipal(bot.name));
  return {
    bot,
    save: async (messages) =>
      acceptSave(deps, bot, { bot: bot.name, messages: [...messages] }, DISCORD_SOURCE),
    forget: (selector) => deps.forget(bot, { bot: bot.name, ...selector }, permissions),
    count: (selector) =>
      deps.journal.forgetting.findMatching(bot.name, toJournalSelector(selector), [DISCORD_SOURCE]).length,
    recordedAmong: (messageIds) =>
      deps.journal.forgetting.journaledAmong(bot.name, DISCORD_SOURCE, messageIds),
    retrieve: (request) => deps.retrieve(bot, { ...request, bot: bot.name }),
    stats: () => readBotStats(deps, bot),
  };
}
