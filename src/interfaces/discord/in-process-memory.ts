/**
 * @module DiscordMemory inside `memory-pool serve`: the service's own operations (src/core/operations/),
 * called directly (no HTTP hop, no API key to manage) with the interface's own principal, so they
 * authorize, route to the live collection and count exactly as the routes do.
 */
import type { Principal } from '../../auth/api-key-auth.js';
import type { BotConfig } from '../../config/config-types.js';
import type { MemoryOperations, MessageMatch } from '../../core/operations/memory-operations.js';
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
      source: DISCORD_SOURCE,
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

/**
 * The memory of `bot` (as configured: its name, speaker and scope, which the caller read from the config)
 * through `operations`; every memory call routes to the bot's live collection inside them.
 */
export function createInProcessDiscordMemory(operations: MemoryOperations, bot: BotConfig): DiscordMemory {
  const botName = bot.name;
  const principal = discordPrincipal(botName);
  return {
    bot,
    save: async (messages) => operations.save(principal, botName, { bot: botName, messages: [...messages] }),
    forget: (selector) => operations.forget(principal, botName, { bot: botName, ...selector }),
    count: (selector) => operations.countForgettable(principal, botName, toJournalSelector(selector)),
    recordedAmong: (messageIds) => operations.recordedAmong(principal, botName, messageIds),
    recordedInChannel: (channelId, fromTs, toTs) =>
      operations.journaledInChannel(principal, botName, { channelId, fromTs, toTs }),
    retrieve: (request) => operations.retrieve(principal, botName, { ...request, bot: botName }),
    stats: () => operations.stats(principal, botName),
    // The interface vouches for the Discord user who typed the command, as it does for what they write.
    createLinkCode: (discordUserId) =>
      operations.people.createLinkCode(principal, botName, { discord_user_id: discordUserId }),
    linkCodeStatus: (code, discordUserId) =>
      operations.people.linkCodeStatus(principal, botName, {
        code,
        account: { discord_user_id: discordUserId },
      }),
    redeemLinkCode: (code, discordUserId) =>
      operations.people.redeemLinkCode(principal, botName, {
        code,
        account: { discord_user_id: discordUserId },
      }),
    linkedDiscordUserIds: () => operations.people.linkedDiscordUserIds(principal, botName),
    // The person's own request, vouched for by Discord (who typed the command): docs/people.md.
    countOwnPerson: (discordUserId) =>
      operations.countOwnPerson(principal, botName, { discord_user_id: discordUserId }),
    forgetOwnPerson: (discordUserId) =>
      operations.forgetOwnPerson(principal, botName, { discord_user_id: discordUserId }),
  };
}
