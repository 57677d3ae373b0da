/**
 * @module Which vector layout a shared collection has, read the way starrysky180111's st-qdrant-memory fork
 * reads it from `config.params`: one unnamed vector (upstream and older collections), or named vectors,
 * preferring the one called `dense`, plus the sparse vector `bm25` when the collection is hybrid.
 */
import type { CollectionShape } from '../point-store.js';

/** The fork's names for its hybrid collections' vectors. */
export const ST_DENSE_VECTOR = 'dense';
export const ST_SPARSE_VECTOR = 'bm25';

export type StCollectionLayout =
  | { readonly kind: 'unnamed' }
  /** Named dense vectors without `bm25` (made by hand): the fork writes only the dense one. */
  | { readonly kind: 'named'; readonly dense: string; readonly size: number | undefined }
  /** The fork's hybrid collection: the dense vector and the sparse `bm25` with its modifier. */
  | {
      readonly kind: 'hybrid';
      readonly dense: string;
      readonly size: number | undefined;
      readonly sparseModifier: string;
    };

/** The layout of an existing collection. */
export function readStLayout(shape: CollectionShape): StCollectionLayout {
  if (shape.vectorSize !== undefined || shape.namedVectors.length === 0) return { kind: 'unnamed' };
  const dense = shape.namedVectors.includes(ST_DENSE_VECTOR) ? ST_DENSE_VECTOR : shape.namedVectors[0]!;
  const size = shape.namedVectorSizes?.[dense];
  const sparseModifier = shape.sparseVectors?.[ST_SPARSE_VECTOR];
  return sparseModifier === undefined
    ? { kind: 'named', dense, size }
    : { kind: 'hybrid', dense, size, sparseModifier };
}
