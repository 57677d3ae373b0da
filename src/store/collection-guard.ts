/**
 * @module Makes sure a collection fits the embedder before anything is written to it: created on first write
 * with the embedder's dimension and Cosine distance, never recreated, never written with a wrong vector.
 */
import { StoreError } from '../errors/memory-pool-error.js';
import type { Journal } from '../journal/journal.js';
import type { CollectionShape, PointStore } from './point-store.js';
import { readStLayout } from './st-hybrid/st-collection-layout.js';

export interface CollectionGuard {
  /** Resolves when `collection` exists and fits vectors of `dimensions` from `model`; throws StoreError otherwise. */
  ensureCollection(collection: string, model: string, dimensions: number): Promise<void>;
  /** For reads: false when the collection does not exist yet; throws StoreError when it does not fit. */
  checkReadable(collection: string, model: string, dimensions: number): Promise<boolean>;
  /** Forgets what was checked, after the store said the collection is gone. */
  invalidate(collection: string): void;
}

export interface CollectionGuardOptions {
  /**
   * Runs once per collection (and again after `invalidate`) before its first write: what the service sets up
   * beside the points, such as the timeline's payload index. `shape` is undefined for a collection just created.
   */
  readonly prepare?: (collection: string, shape: CollectionShape | undefined) => Promise<void>;
  /**
   * Runs when the write path finds `collection` missing, just before creating it: the service deletes the
   * parts a deleted collection left behind, or a collection created again would reuse its deleted text.
   */
  readonly beforeCreate?: (collection: string) => Promise<void>;
}

/** Creates a guard that remembers collections it already checked (until the process restarts). */
export function createCollectionGuard(
  store: PointStore,
  journal: Journal,
  options: CollectionGuardOptions = {},
): CollectionGuard {
  const checked = new Map<string, string>();
  /** Collections prepared for writing (a read checks a collection too, but never prepares it). */
  const prepared = new Set<string>();
  const verify = async (collection: string, model: string, dimensions: number, create: boolean) => {
    const signature = `${model}@${dimensions}`;
    if (checked.get(collection) === signature && (!create || prepared.has(collection))) return true;
    const recorded = await journal.collectionModel(collection);
    if (recorded && recorded.model !== model) {
      throw incompatible(
        `collection ${collection} was written by memory-pool with the embedding model ${recorded.model}, but the configured model is ${model}. ` +
          'Vectors of different models cannot be compared: configure the original model again, or point the bot at a new collection (bots.<bot>.collection).',
      );
    }
    const shape = await store.describeCollection(collection);
    if (shape === undefined) {
      if (!create) return false;
      await options.beforeCreate?.(collection);
      await store.createCollection(collection, dimensions);
    } else if (shape.vectorSize === undefined) {
      // st-qdrant-memory's hybrid fork names its dense vector; the store writes and searches that one.
      const layout = readStLayout(shape);
      if (layout.kind === 'unnamed' || layout.size === undefined) {
        throw incompatible(
          `collection ${collection} uses named vectors (${shape.namedVectors.join(', ') || 'none'}) without a size memory-pool can check; memory-pool writes one unnamed vector, or the named dense vector of st-qdrant-memory's hybrid fork. ` +
            'Point the bot at another collection (bots.<bot>.collection).',
        );
      }
      if (layout.size !== dimensions) {
        throw incompatible(
          `collection ${collection} holds ${layout.size}-dimensional "${layout.dense}" vectors, but the embedder ${model} makes ${dimensions}-dimensional ones. ` +
            'Use the model that created the collection (with SillyTavern: the same model as st-qdrant-memory), or choose another collection.',
        );
      }
    } else if (shape.vectorSize !== dimensions) {
      throw incompatible(
        `collection ${collection} holds ${shape.vectorSize}-dimensional vectors, but the embedder ${model} makes ${dimensions}-dimensional ones. ` +
          `Use the model that created the collection (with SillyTavern: the same model as st-qdrant-memory), set embedding.dimensions to ${shape.vectorSize} if the model supports it, or choose another collection.`,
      );
    }
    // Only on the write path: a read never changes the store.
    if (create) {
      await options.prepare?.(collection, shape);
      prepared.add(collection);
    }
    await journal.recordCollectionModel(collection, model, dimensions, Date.now());
    checked.set(collection, signature);
    return true;
  };
  return {
    ensureCollection: async (collection, model, dimensions) =>
      void (await verify(collection, model, dimensions, true)),
    checkReadable: (collection, model, dimensions) => verify(collection, model, dimensions, false),
    invalidate: (collection) => {
      checked.delete(collection);
      prepared.delete(collection);
    },
  };
}

function incompatible(message: string): StoreError {
  return new StoreError('collection_incompatible', message, { retryable: false });
}
