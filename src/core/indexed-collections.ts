/**
 * @module The collections serve asks for payload indexes on at start, each with its families: every bot's collection
 * (all of them), and for `dmWith` alone the collection a bot was configured with before a reembed's switch, the
 * target a reembed in progress is building, and each one's parts.
 */
import type { BotConfig } from '../config/config-types.js';
import type { Journal } from '../journal/journal.js';
import { partsCollectionName } from '../parts/parts-collection-name.js';
import {
  CHUNKS_INDEXES,
  DM_WITH_ONLY,
  type IndexFailed,
  type IndexFamily,
} from '../store/service-indexes.js';

/**
 * Sorted, once each. `bots` are routed (each names the collection it uses now). A reembed target is written by
 * serve while the reembed runs and read by recall after its switch: its collection and parts must not wait for the
 * next start to be indexed. When the journal's routes cannot be read, the bots' own collections are still listed
 * (the failure goes to `onError` as the `dmWith` family's, for `(routes)`).
 */
export async function listIndexedCollections(
  journal: Pick<Journal, 'routes'>,
  bots: Readonly<Record<string, BotConfig>>,
  onError: IndexFailed,
): Promise<Map<string, readonly IndexFamily[]>> {
  const families = new Map<string, readonly IndexFamily[]>();
  for (const bot of Object.values(bots)) families.set(bot.collection, CHUNKS_INDEXES);
  const addDmWith = (name: string) => {
    if (!families.has(name)) families.set(name, DM_WITH_ONLY);
  };
  try {
    for (const bot of Object.values(bots)) {
      const live = await journal.routes.resolve(bot.collection);
      const target = await journal.routes.followerOf(live);
      for (const name of [bot.collection, live, target]) {
        if (name === undefined) continue;
        addDmWith(name);
        addDmWith(partsCollectionName(name));
      }
    }
  } catch (error) {
    onError('dmWith', '(routes)', error);
  }
  return new Map([...families].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
