/**
 * @module Which dimensions of a hybrid collection's sparse vector some point within a filter holds. The embedded
 * store in this process answers in one pass over its index (posted-held-terms.ts); a Qdrant over REST has no
 * such read, so it is asked one dimension at a time (a search with limit 1 each, all at once).
 */
import type { QdrantClient } from '@qdrant/js-client-rest';
import { SPARSE_VECTOR } from '../hybrid-point-store.js';
import type { StoreFilter } from '../point-store.js';

/** The embedded store's held-terms read without REST (its QdrantServer.heldTerms). */
export interface PostedHeldTerms {
  heldTerms(
    collection: string,
    request: { readonly using: string; readonly indices: readonly number[]; readonly filter?: unknown },
  ): Promise<number[]>;
}

/** The subset of `indices` held within `filter`: over `posted` when given, else one REST search per index. */
export async function findHeldSparseTerms(
  client: QdrantClient,
  posted: PostedHeldTerms | undefined,
  collection: string,
  indices: readonly number[],
  filter: StoreFilter | undefined,
): Promise<Set<number>> {
  if (indices.length === 0) return new Set();
  if (posted !== undefined) {
    const request = {
      using: SPARSE_VECTOR,
      indices: [...indices],
      ...(filter === undefined ? {} : { filter }),
    };
    return new Set(await posted.heldTerms(collection, request));
  }
  const held = await Promise.all(
    [...new Set(indices)].map(async (index) => {
      const found = await client.query(collection, {
        query: { indices: [index], values: [1] },
        using: SPARSE_VECTOR,
        limit: 1,
        with_payload: false,
        ...(filter === undefined ? {} : { filter }),
      });
      return found.points.length > 0 ? [index] : [];
    }),
  );
  return new Set(held.flat());
}
