/**
 * @module What a recall does while the model embeds its query: the collection's checks and the searches that
 * need no vector (search-hybrid's word searches), so that only the vector's own searches wait for the vector.
 */
import type { Embedder } from '../embedding/embedder.js';
import type { PartsGuard } from '../parts/parts-guard.js';
import type { CollectionGuard } from '../store/collection-guard.js';
import type { MemoryStore } from '../store/memory-store.js';
import { type HybridSearch, startWordSearches, type WordSearches } from './search-hybrid.js';

export interface EarlyRecallDeps {
  readonly store: MemoryStore;
  readonly embedder: Pick<Embedder, 'model' | 'dimensions'>;
  readonly guard: Pick<CollectionGuard, 'checkReadable'>;
  readonly partsGuard?: Pick<PartsGuard, 'checkPartsUsable'>;
}

/** The early work of one recall, for a vector of `dimensions` values. */
export interface EarlyRecall {
  readonly dimensions: number;
  /** The collection guard's answer (false: nothing was ever written). */
  readonly readable: Promise<boolean>;
  /** The word searches when the parts index can be used, else undefined (chunk-only recall). */
  readonly words: Promise<WordSearches | undefined>;
}

/**
 * Starts the checks (then, for hybrid recall, the word searches of `search`) with the dimensions the
 * embedder declares, while `embedding` (the query's) is on its way; undefined when the embedder declares no
 * dimensions, and the recall does all of it once the vector came.
 * The checks are the ones recall made after the vector, in the same order, with the same arguments.
 */
export function startEarlyRecall(
  deps: EarlyRecallDeps,
  search: Omit<HybridSearch, 'vector'>,
  embedding: Promise<unknown>,
): EarlyRecall | undefined {
  const { dimensions, model } = deps.embedder;
  if (dimensions === undefined) return undefined;
  const { partsGuard } = deps;
  // A cached vector comes before the checks end: then there is no wait to fill (startWordSearches).
  let embedded = false;
  embedding.then(
    () => (embedded = true),
    () => undefined,
  );
  const readable = deps.guard.checkReadable(search.collection, model, dimensions);
  const words = readable.then(async (found) => {
    if (!found || partsGuard === undefined) return undefined;
    const hybrid = await partsGuard.checkPartsUsable(search.collection, model, dimensions);
    return hybrid ? startWordSearches(deps.store, search, { askWholeChunks: !embedded }) : undefined;
  });
  // Awaited only once the vector came (and has these dimensions): a failure before is seen then, or never.
  readable.catch(() => undefined);
  words.catch(() => undefined);
  return { dimensions, readable, words };
}
