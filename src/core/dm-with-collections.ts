/**
 * @module The collections serve asks the `dmWith` index on at start: each bot's configured collection, the one it
 * uses now (after a reembed's switch), the target a reembed in progress is building, and each one's parts.
 */
import type { BotConfig } from '../config/config-types.js';
import type { Journal } from '../journal/journal.js';
import { partsCollectionName } from '../parts/parts-collection-name.js';

/**
 * Sorted, once each. A reembed target is written by serve while the reembed runs and read by recall after its
 * switch: its collection and parts must not wait for the next start to be indexed.
 */
export async function listDmWithCollections(
  journal: Pick<Journal, 'routes'>,
  bots: Readonly<Record<string, BotConfig>>,
): Promise<string[]> {
  const names = new Set<string>();
  for (const bot of Object.values(bots)) {
    const live = await journal.routes.resolve(bot.collection);
    const target = await journal.routes.followerOf(live);
    for (const name of [bot.collection, live, target]) {
      if (name === undefined) continue;
      names.add(name);
      names.add(partsCollectionName(name));
    }
  }
  return [...names].sort();
}
