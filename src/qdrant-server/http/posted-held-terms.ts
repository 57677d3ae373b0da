/**
 * @module Which sparse dimensions a collection holds, asked by a caller in the same process (the memory service,
 * over the store thread's port): one pass over the sparse index's posting lists instead of one search per term.
 * Not a Qdrant route, so a real Qdrant is asked term by term (src/retrieval/noise/find-held-terms.ts).
 */
import type { StoreEngine } from '../engine/engine-api.js';
import { parseFilter } from '../filter/parse-filter.js';
import { isQdrantError, QdrantError } from '../qdrant-error.js';
import type { StoreLogger } from '../store-logger.js';
import { assertCollectionName } from './assert-collection-name.js';

/** The question: these dimensions of the sparse vector `using`, among the points `filter` (Qdrant's JSON) passes. */
export interface HeldTermsRequest {
  readonly using: string;
  readonly indices: readonly number[];
  readonly filter?: unknown;
}

/**
 * The dimensions among `request.indices` some point within the filter has. Throws the QdrantError a query with
 * that collection, vector name and filter would answer with; anything else as a 500, logged.
 */
export function findHeldDimensions(
  engine: StoreEngine,
  collection: string,
  request: HeldTermsRequest,
  logger?: StoreLogger,
): number[] {
  try {
    const filter = request.filter === undefined ? undefined : parseFilter(request.filter);
    return engine
      .collection(assertCollectionName(collection))
      .heldSparseDimensions(request.using, request.indices, filter);
  } catch (error) {
    if (isQdrantError(error)) throw error;
    const message = error instanceof Error ? error.message : String(error);
    logger?.error({ err: error, collection }, 'embedded store held-terms read failed');
    throw new QdrantError(500, `Service internal error: ${message}`);
  }
}
