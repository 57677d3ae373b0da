/**
 * @module How the service learns of a reembed switch at start: it reads the journal's routes and uses each
 * bot's switched collection. A collection whose `embedding:` reembed recorded is embedded with that model
 * whatever the config says (the service follows the journal); one switched without a record (an older
 * memory-pool) refuses an embedder of another model, since its queries could not be compared with the vectors.
 */
import type { BotConfig } from '../config/config-types.js';
import { describeModel, sameModel } from '../config/same-model.js';
import { ConfigError } from '../errors/memory-pool-error.js';
import type { Journal } from '../journal/journal.js';

/** The bots with the collection each one uses now; unswitched bots are returned as they are. */
export async function routeBots(
  bots: Readonly<Record<string, BotConfig>>,
  journal: Journal,
  embedder?: { readonly model: string; readonly dimensions: number | undefined },
): Promise<Readonly<Record<string, BotConfig>>> {
  const routed: [string, BotConfig][] = [];
  for (const [name, bot] of Object.entries(bots))
    routed.push([name, await routeBot(name, bot, journal, embedder)]);
  return Object.fromEntries(routed);
}

async function routeBot(
  name: string,
  bot: BotConfig,
  journal: Journal,
  embedder: { readonly model: string; readonly dimensions: number | undefined } | undefined,
): Promise<BotConfig> {
  const route = await journal.routes.routeOf(bot.collection);
  if (route === undefined || route.target === bot.collection) return bot;
  const recorded = await journal.collectionModel(route.target);
  // A collection whose embedding reembed recorded is embedded with that model (BotCollections).
  const followable = (await journal.routes.embeddingOf(route.target)) !== undefined;
  if (embedder !== undefined && recorded !== undefined && !followable && !sameModel(recorded, embedder)) {
    const model = describeModel(embedder);
    throw new ConfigError(
      'embedding',
      `bot ${name}'s collection ${bot.collection} was switched by \`memory-pool reembed\` to ${route.target}, built with ${describeModel(recorded)}, ` +
        `but the config embeds with ${model}. Set embedding to those settings, or switch back with \`memory-pool reembed --bot ${name} --rollback\``,
    );
  }
  return { ...bot, collection: route.target };
}
