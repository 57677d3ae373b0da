/**
 * @module The payload a write adds for Shadota's per-chat fork of st-qdrant-memory (`bots.<name>.stChatId`):
 * matched on the collection a bot's configured name resolves to now, so a write to the collection
 * `memory-pool reembed` switched the bot to carries the chat's `chatId` as the configured one did.
 */
import type { BotConfig } from '../config/config-types.js';
import type { Journal } from '../journal/journal.js';

/** `chatId` for the collections of bots mapped to a chat, before and after a reembed switch. */
export function perChatPayloads(
  bots: Readonly<Record<string, BotConfig>>,
  journal: Pick<Journal, 'routes'>,
): (collection: string) => Promise<Readonly<Record<string, unknown>> | undefined> {
  const chatBots = Object.values(bots).filter((bot) => bot.stChatId !== undefined);
  return async (collection) => {
    if (chatBots.length === 0) return undefined;
    // Any name of a switched collection (configured, target, previous) resolves to the one in use.
    const live = await journal.routes.resolve(collection);
    let bot: BotConfig | undefined;
    for (const candidate of chatBots) {
      if ((await journal.routes.resolve(candidate.collection)) !== live) continue;
      bot = candidate;
      break;
    }
    return bot === undefined ? undefined : { chatId: bot.stChatId };
  };
}
