/**
 * @module A PointStore that writes and searches each shared collection in its own layout: one unnamed vector
 * (st-qdrant-memory, and what memory-pool creates), or starrysky180111's fork's named `dense` vector with
 * the sparse `bm25` beside it. Points then carry exactly the vectors the fork would give them, so its hybrid
 * search finds memory-pool's memories, and memory-pool recalls through the same dense + BM25 fusion.
 */
import type { HybridPointStore } from '../hybrid-point-store.js';
import type { PointStore, ScoredStorePoint, SearchOptions, StorePoint } from '../point-store.js';
import { encodeStBm25 } from './st-bm25-encoding.js';
import { readStLayout, ST_SPARSE_VECTOR, type StCollectionLayout } from './st-collection-layout.js';
import type { StHybridStore } from './st-hybrid-store.js';

type InnerStore = PointStore & HybridPointStore & StHybridStore;

export interface StLayoutOptions {
  /**
   * Payload fields added to every point written to a collection: `chatId` for a collection of Shadota's
   * per-chat fork, whose recall keeps only points of the chat it is in. Asked at each write, since the
   * collection a bot writes changes when `memory-pool reembed` switches it.
   */
  readonly payloadFor?: (
    collection: string,
  ) => Promise<Readonly<Record<string, unknown>> | undefined> | Readonly<Record<string, unknown>> | undefined;
}

/** Wraps `inner`; every other call passes through unchanged. */
export function withStCollectionLayouts<S extends InnerStore>(inner: S, options: StLayoutOptions = {}): S {
  const layouts = new Map<string, StCollectionLayout>();
  const layoutOf = async (collection: string): Promise<StCollectionLayout> => {
    const known = layouts.get(collection);
    if (known) return known;
    const shape = await inner.describeCollection(collection);
    const layout = shape === undefined ? ({ kind: 'unnamed' } as const) : readStLayout(shape);
    // A missing collection is about to be created unnamed; only an existing one's layout is worth keeping.
    if (shape !== undefined) layouts.set(collection, layout);
    return layout;
  };
  /** A failed call may mean SillyTavern deleted or migrated the collection: read its layout again next time. */
  const forgetOnFailure = async <T>(collection: string, run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      layouts.delete(collection);
      throw error;
    }
  };

  const withExtraPayload = async (
    collection: string,
    points: readonly StorePoint[],
  ): Promise<readonly StorePoint[]> => {
    const extra = await options.payloadFor?.(collection);
    return extra === undefined ? points : points.map((p) => ({ ...p, payload: { ...p.payload, ...extra } }));
  };

  const upsertPoints = (collection: string, given: readonly StorePoint[]) =>
    forgetOnFailure(collection, async () => {
      const points = await withExtraPayload(collection, given);
      const layout = await layoutOf(collection);
      if (layout.kind === 'unnamed') return inner.upsertPoints(collection, points);
      return inner.upsertNamedVectors(
        collection,
        points.map((p) => ({
          id: p.id,
          vectors: {
            [layout.dense]: p.vector,
            // The fork encodes the chunk's text field, the same text memory-pool embedded.
            ...(layout.kind === 'hybrid'
              ? { [ST_SPARSE_VECTOR]: encodeStBm25(String(p.payload.text ?? '')) }
              : {}),
          },
          payload: p.payload,
        })),
      );
    });

  const searchPoints = (collection: string, search: SearchOptions): Promise<ScoredStorePoint[]> =>
    forgetOnFailure(collection, async () => {
      const layout = await layoutOf(collection);
      if (layout.kind === 'unnamed') return inner.searchPoints(collection, search);
      const filter = search.filter === undefined ? {} : { filter: search.filter };
      const threshold = search.scoreThreshold === undefined ? {} : { scoreThreshold: search.scoreThreshold };
      const sparse =
        layout.kind === 'hybrid' && search.queryText ? encodeStBm25(search.queryText) : undefined;
      if (sparse === undefined || sparse.indices.length === 0) {
        // The fork's own fallback when a query has no token: the dense vector alone.
        return inner.queryPoints(collection, {
          query: search.vector,
          using: layout.dense,
          limit: search.limit,
          ...threshold,
          ...filter,
        });
      }
      // The fork's hybrid search; the similarity threshold bounds the dense side, as its score_threshold
      // would a plain search (RRF scores are ranks: two first places make 1, so they read like a score).
      return inner.queryFused(collection, {
        prefetch: [
          { query: search.vector, using: layout.dense, limit: search.limit, ...threshold },
          { query: sparse, using: ST_SPARSE_VECTOR, limit: search.limit },
        ],
        limit: search.limit,
        ...filter,
      });
    });

  return { ...inner, upsertPoints, searchPoints };
}
