/**
 * @module The collections serve asks for payload indexes on at start, each with its families: every chunks collection a
 * bot reads or will read (its configured one, the one a reembed switched it to, the target a reembed in progress is
 * building) gets all of them, and each one's parts `dmWith` alone.
 */
import type { BotConfig } from '../config/config-types.js';
import type { Journal } from '../journal/journal.js';
import { partsCollectionName } from '../parts/parts-collection-name.js';
import {
  CHUNKS_INDEXES,
  PARTS_INDEXES,
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
  const add = (name: string, wanted: readonly IndexFamily[]) => {
    if (!families.has(name)) families.set(name, wanted);
  };
  try {
    for (const bot of Object.values(bots)) {
      const live = await journal.routes.resolve(bot.collection);
      const target = await journal.routes.followerOf(live);
      for (const name of [bot.collection, live, target]) {
        if (name === undefined) continue;
        // A chunks collection the bot reads after a switch is the viewer's timeline too (ordered by `timestamp`).
        add(name, CHUNKS_INDEXES);
        add(partsCollectionName(name), PARTS_INDEXES);
      }
    }
  } catch (error) {
    onError('dmWith', '(routes)', error);
  }
  return new Map([...families].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
