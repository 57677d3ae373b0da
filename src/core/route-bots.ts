/**
 * @module How the service learns of a reembed switch at start: it reads the journal's routes and uses each
 * bot's switched collection. A collection whose `embedding:` reembed recorded is embedded with that model
 * whatever the config says (the service follows the journal); one switched without a record (an older
 * memory-pool) refuses an embedder of another model, since its queries could not be compared with the vectors.
 */
import type { BotConfig } from '../config/config-types.js';
import { ConfigError } from '../errors/memory-pool-error.js';
import type { MessageJournal } from '../journal/message-journal.js';
import { describeModel, sameModel } from '../config/same-model.js';

/** The bots with the collection each one uses now; unswitched bots are returned as they are. */
export function routeBots(
  bots: Readonly<Record<string, BotConfig>>,
  journal: MessageJournal,
  embedder?: { readonly model: string; readonly dimensions: number | undefined },
): Readonly<Record<string, BotConfig>> {
  return Object.fromEntries(
    Object.entries(bots).map(([name, bot]) => {
      const route = journal.routes.routeOf(bot.collection);
      if (route === undefined || route.target === bot.collection) return [name, bot];
      const recorded = journal.collectionModel(route.target);
      // A collection whose embedding reembed recorded is embedded with that model (BotCollections).
      const followable = journal.routes.embeddingOf(route.target) !== undefined;
      if (embedder !== undefined && recorded !== undefined && !followable && !sameModel(recorded, embedder)) {
        const model = describeModel(embedder);
        throw new ConfigError(
          'embedding',
          `bot ${name}'s collection ${bot.collection} was switched by \`memory-pool reembed\` to ${route.target}, built with ${describeModel(recorded)}, ` +
            `but the config embeds with ${model}. Set embedding to those settings, or switch back with \`memory-pool reembed --bot ${name} --rollback\``,
        );
      }
      return [name, { ...bot, collection: route.target }];
    }),
  );
}
