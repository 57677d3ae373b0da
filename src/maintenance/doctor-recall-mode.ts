/**
 * @module `memory-pool doctor`'s recall-mode line per bot: hybrid (passages from a complete parts index) or
 * chunk-only, and a failure with the fix when a bot with memories falls back to chunk-only, which measured
 * 32.5 % instead of 77.5 % evidence recall at 10 turns (docs/recall.md). Read-only, unlike the parts guard
 * serve uses (it records what it checked), and by the same rules.
 */
import type { BotConfig, MemoryPoolConfig } from '../config/config-types.js';
import type { Journal } from '../journal/journal.js';
import { partsCollectionName } from '../parts/parts-collection-name.js';
import type { PointStore } from '../store/point-store.js';
import { sourcedPoints } from '../store/store-filters.js';
import { type DoctorCheck, fail, pass } from './doctor-check.js';

export interface RecallModeDeps {
  readonly store: PointStore;
  readonly journal: Journal;
}

const FALLBACK = 'recall falls back to whole chunks (32.5 % instead of 77.5 % of the evidence at 10 turns)';

/** One line per bot: the mode `/retrieve` answers in now, failing when memories are there but not their parts. */
export async function checkRecallModes(
  deps: RecallModeDeps,
  config: MemoryPoolConfig,
): Promise<DoctorCheck[]> {
  const checks: DoctorCheck[] = [];
  for (const bot of Object.values(config.bots)) checks.push(await checkRecallMode(deps, bot));
  return checks;
}

async function checkRecallMode(deps: RecallModeDeps, bot: BotConfig): Promise<DoctorCheck> {
  const { store, journal } = deps;
  const collection = await journal.routes.activeCollection(bot.collection);
  const name = `bot ${bot.name}: recall mode`;
  const building = await journal.routes.reembedOf(bot.collection);
  // A reembed waits for its parts before it switches (reembed-collection.ts): say so, it is not a fallback.
  const buildingComplete =
    building === undefined ? undefined : await journal.partsIndexes.isComplete(building.target);
  const note =
    building === undefined
      ? ''
      : `; a reembed is building ${building.target}, whose parts index is ${buildingComplete === true ? 'complete' : 'not complete yet (the switch waits for it)'}`;
  if ((await store.describeCollection(collection)) === undefined) {
    return pass(name, `none yet: ${collection} is not created${note}`);
  }
  const parts = partsCollectionName(collection);
  const problem = await findPartsProblem(deps, collection, parts);
  if (problem === undefined) return pass(name, `hybrid: passages from ${parts}, complete${note}`);
  if ((await store.countPoints(collection, sourcedPoints())) === 0) {
    // SillyTavern's own points have no parts; the first save creates the index, complete.
    return pass(name, `chunk-only: ${collection} holds no memory-pool chunks yet${note}`);
  }
  return fail(
    name,
    `chunk-only: ${problem}, so ${FALLBACK}${note}`,
    `Run \`memory-pool reindex --bot ${bot.name}\` (serve may keep running; a parts index written with another model: delete it first); recall turns hybrid when it completes.`,
  );
}

/** Why recall cannot use `collection`'s parts, as the parts guard decides; undefined when it can. */
async function findPartsProblem(
  deps: RecallModeDeps,
  collection: string,
  parts: string,
): Promise<string | undefined> {
  const { store, journal } = deps;
  const shape = await store.describeCollection(parts);
  if (shape === undefined) return `its parts index ${parts} does not exist`;
  const model = (await journal.collectionModel(collection))?.model;
  const partsModel = (await journal.collectionModel(parts))?.model;
  if (model !== undefined && partsModel !== undefined && model !== partsModel) {
    return `its parts index ${parts} was written with ${partsModel}, its chunks with ${model}`;
  }
  if ((await journal.partsIndexes.isComplete(collection)) !== true)
    return `its parts index ${parts} is not complete`;
  return undefined;
}
