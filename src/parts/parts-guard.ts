/**
 * @module The collection guard's checks for parts collections: created on first write with the embedder's
 * dimension (and recorded as incomplete when chunks were stored before it), never recreated, never written
 * or searched with another model's vectors or a layout that is not the parts layout; deleted with the parts
 * text when their collection is gone.
 */
import { StoreError } from '../errors/memory-pool-error.js';
import type { Journal } from '../journal/journal.js';
import { DENSE_VECTOR, type HybridPointStore, SPARSE_VECTOR } from '../store/hybrid-point-store.js';
import type { PointStore } from '../store/point-store.js';
import { partsCollectionName } from './parts-collection-name.js';
import { hasPartsShape, ownsParts } from './parts-ownership.js';
import { sourcedPoints } from '../store/store-filters.js';

export interface PartsGuard {
  /** Resolves when the parts collection of `collection` exists and fits; creates it on first write. */
  ensureParts(collection: string, model: string, dimensions: number): Promise<void>;
  /** For recall: true when the parts of `collection` exist, fit, and are complete. Throws when they do not fit. */
  checkPartsUsable(collection: string, model: string, dimensions: number): Promise<boolean>;
  /** Forgets what was checked, after the store said the collection is gone. */
  invalidate(collection: string): void;
  /** Forgets every check: another replica changed parts-index state (it may have dropped or made parts). */
  invalidateAll(): void;
  /**
   * After the store said `collection` is gone (deleted by SillyTavern's "Delete All Memories" or any client):
   * deletes its parts, which hold the same text. True when parts were deleted. A collection that exists again
   * (a first write created it) or that a reembed is building keeps its parts.
   */
  dropIfCollectionGone(collection: string): Promise<boolean>;
}

/** Chunks memory-pool stored carry a `source`; SillyTavern's never have parts written with them. */
const MEMORY_POOL_CHUNKS = sourcedPoints();

export function createPartsGuard(
  store: PointStore & HybridPointStore,
  journal: Journal,
  options: {
    /** Run once a parts collection is created (its payload indexes); a failure is the callback's to report. */
    readonly afterCreate?: (parts: string) => Promise<void>;
  } = {},
): PartsGuard {
  const checked = new Map<string, string>();
  const lock = createKeyedLock();
  const verify = async (collection: string, model: string, dimensions: number, create: boolean) => {
    const parts = partsCollectionName(collection);
    const signature = `${model}@${dimensions}`;
    if (checked.get(parts) === signature) return true;
    // Never beside a drop of the same parts: a drop between its check and its create would lose fresh parts.
    return lock(parts, () => verifyUnlocked(collection, parts, signature, model, dimensions, create));
  };
  const verifyUnlocked = async (
    collection: string,
    parts: string,
    signature: string,
    model: string,
    dimensions: number,
    create: boolean,
  ) => {
    const recorded = await journal.collectionModel(parts);
    if (recorded && recorded.model !== model) {
      throw incompatible(
        `the parts index ${parts} was written with the embedding model ${recorded.model}, but the configured model is ${model}. ` +
          'Configure the original model again, or delete the parts collection and run `memory-pool reindex`.',
      );
    }
    const shape = await store.describeCollection(parts);
    if (shape === undefined) {
      if (!create) return false;
      // Decided before the collection exists, so a crash in between leaves it incomplete, never wrongly complete.
      const earlier = await store.countPoints(collection, MEMORY_POOL_CHUNKS);
      // What an earlier index (or a drop racing this creation) recorded says nothing of these new parts.
      // One transaction: another replica never reads the index as unrecorded in between.
      await journal.transaction(async (tx) => {
        await tx.partsIndexes.forget(collection);
        await tx.partsIndexes.recordStarted(collection, earlier === 0, Date.now());
      });
      await store.createHybridCollection(parts, dimensions);
      await options.afterCreate?.(parts);
    } else {
      const dense = shape.namedVectorSizes?.[DENSE_VECTOR];
      if (dense !== dimensions || shape.sparseVectors?.[SPARSE_VECTOR] !== 'idf') {
        throw incompatible(
          `the parts index ${parts} does not have the parts layout (a ${dimensions}-dimensional vector "${DENSE_VECTOR}" and a sparse vector "${SPARSE_VECTOR}" with modifier idf). ` +
            'Delete it and run `memory-pool reindex`.',
        );
      }
    }
    await journal.recordCollectionModel(parts, model, dimensions, Date.now());
    checked.set(parts, signature);
    return true;
  };
  return {
    ensureParts: async (collection, model, dimensions) =>
      void (await verify(collection, model, dimensions, true)),
    checkPartsUsable: async (collection, model, dimensions) =>
      (await verify(collection, model, dimensions, false)) &&
      (await journal.partsIndexes.isComplete(collection)) === true,
    invalidate: (collection) => void checked.delete(partsCollectionName(collection)),
    invalidateAll: () => checked.clear(),
    dropIfCollectionGone: (collection) => {
      const parts = partsCollectionName(collection);
      // A writer that checked before this must check again, and wait for the drop to finish.
      checked.delete(parts);
      return lock(parts, async () => {
        if (await journal.routes.isReembedTarget(collection)) return false;
        // The writer creates a collection before its parts: one that exists now keeps the parts it has.
        if ((await store.describeCollection(collection)) !== undefined) return false;
        // Never a collection memory-pool did not record as these parts (another app's, a bot's own).
        if (!(await ownsParts(journal, collection, hasPartsShape(await store.describeCollection(parts)))))
          return false;
        await store.deleteCollection(parts);
        // A check queued behind this drop cached the parts as there: they are not any more.
        checked.delete(parts);
        await journal.transaction(async (tx) => {
          await tx.partsIndexes.forget(collection);
          await tx.forgetCollectionModel(parts);
        });
        // Another process (an import) may have created the collection and written parts meanwhile: until a
        // reindex, recall must not trust an index that may now lack them.
        if ((await store.describeCollection(collection)) !== undefined)
          await journal.partsIndexes.recordStarted(collection, false, Date.now());
        return true;
      });
    },
  };
}

/** Runs tasks of the same key one after another (in this process), tasks of different keys side by side. */
function createKeyedLock() {
  const tails = new Map<string, Promise<unknown>>();
  return <T>(key: string, task: () => Promise<T>): Promise<T> => {
    const run = (tails.get(key) ?? Promise.resolve()).then(task, task);
    const tail = run.catch(() => undefined);
    tails.set(key, tail);
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return run;
  };
}

function incompatible(message: string): StoreError {
  return new StoreError('collection_incompatible', message, { retryable: false });
}

/**
 * Keeps `guard` in step with other replicas: each parts-index change another one commits (a drop, a new
 * parts collection) clears its checks, so the next write checks again instead of failing once. Returns the unwatch.
 */
export function followPartsChanges(journal: Pick<Journal, 'changes'>, guard: PartsGuard): () => void {
  return journal.changes.watch((topic) => {
    if (topic === 'parts-indexes') guard.invalidateAll();
  });
}
