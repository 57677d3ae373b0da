/**
 * @module The copies of a forget's chunks in the bot's collection when the journal records those chunks in another
 * one: a snapshot restored beside the bot's own collection, in the same journal, with the bot then pointed at it (as
 * the restore advises). The journal keeps one row per chunk, naming the collection it was written to, so the chunk
 * writer deletes and rewrites the chunk there; the copy the bot reads, holding the forgotten messages, goes here.
 */
import type { Journal } from '../journal/journal.js';
import type { PartsIndex } from '../parts/parts-index.js';
import type { PointStore } from '../store/point-store.js';
import { allOf, hasId } from '../store/store-filters.js';

export interface CopiesDeps {
  readonly journal: Pick<Journal, 'chunks'>;
  readonly store: Pick<PointStore, 'countPoints' | 'deletePoints'>;
  readonly parts?: Pick<PartsIndex, 'deleteParts'> | undefined;
}

/**
 * After the writer's deletes and rewrites: deletes from `collection` the points of `chunkIds` the journal does not
 * record there (current or waiting for a write), with their parts; answers how many points it deleted. A chunk the
 * journal records in `collection` is left to the writer (its rewrite keeps the same point id).
 */
export async function deleteCopiesElsewhere(
  deps: CopiesDeps,
  collection: string,
  chunkIds: readonly string[],
): Promise<number> {
  if (chunkIds.length === 0) return 0;
  const recorded = [
    ...(await deps.journal.chunks.storedAmong(chunkIds)),
    ...(await deps.journal.chunks.plannedChunks(chunkIds)),
  ];
  const here = new Set(
    recorded.filter((chunk) => chunk.collection === collection).map((chunk) => chunk.chunkId),
  );
  const elsewhere = chunkIds.filter((id) => !here.has(id));
  if (elsewhere.length === 0) return 0;
  // One count in the usual case (the chunks lost every message and the writer deleted them here already).
  const count = await deps.store.countPoints(collection, allOf(hasId(elsewhere)));
  if (count === 0) return 0;
  // Parts first: a part never outlives the chunk whose message it holds.
  await deps.parts?.deleteParts(collection, elsewhere);
  await deps.store.deletePoints(collection, { ids: elsewhere });
  return count;
}
