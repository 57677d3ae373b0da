/**
 * @module Whether a `<collection>__parts` is memory-pool's own parts index: the name alone proves nothing (a
 * bot may be configured with such a name, another app on a shared Qdrant may own one), and what is not ours
 * is never deleted.
 */
import type { Journal } from '../journal/journal.js';
import { DENSE_VECTOR, SPARSE_VECTOR } from '../store/hybrid-point-store.js';
import type { CollectionShape } from '../store/point-store.js';
import type { CollectionDetails, StoreAdmin } from '../store/store-admin.js';
import { partsCollectionName } from './parts-collection-name.js';

export const PARTS_SUFFIX = '__parts';

/** True when `name` could only be a parts collection: config and restore refuse such names for memories. */
export const isPartsName = (name: string): boolean => name.endsWith(PARTS_SUFFIX);

/**
 * True when this journal recorded the parts of `collection` as memory-pool's (a parts index was started
 * for it, or its model recorded), the store shows them with the parts layout, and the name is no collection
 * memory-pool writes memories to (a bot's collection in `keep`, a reembed route's source or target).
 */
export async function ownsParts(
  journal: Pick<Journal, 'routes' | 'partsIndexes' | 'collectionModel'>,
  collection: string,
  laidOutAsParts: boolean,
  keep: ReadonlySet<string> = new Set(),
): Promise<boolean> {
  const parts = partsCollectionName(collection);
  if (!laidOutAsParts || keep.has(parts) || (await isRouted(journal.routes, parts))) return false;
  return (
    (await journal.partsIndexes.isComplete(collection)) !== undefined ||
    (await journal.collectionModel(parts)) !== undefined
  );
}

/** The parts layout as the point store describes it: a named dense vector and an idf sparse vector. */
export const hasPartsShape = (shape: CollectionShape | undefined): boolean =>
  shape?.namedVectorSizes?.[DENSE_VECTOR] !== undefined && shape.sparseVectors?.[SPARSE_VECTOR] === 'idf';

/** The parts layout as the store admin reads it (Qdrant's own create-collection form). */
export function hasPartsLayout(details: CollectionDetails | undefined): boolean {
  const vectors = details?.layout.vectors as Record<string, unknown> | undefined;
  const sparse = details?.layout.sparseVectors as Record<string, { modifier?: unknown }> | undefined;
  return typeof vectors?.[DENSE_VECTOR] === 'object' && sparse?.[SPARSE_VECTOR]?.modifier === 'idf';
}

/**
 * Before a restore creates `collection` again: deletes the parts its deleted predecessor left behind
 * (memory-pool's own only), so they neither keep the deleted text nor pass for the restored collection's.
 */
export async function dropLeftParts(
  admin: Pick<StoreAdmin, 'readCollection' | 'deleteCollection'>,
  journal: Pick<Journal, 'routes' | 'partsIndexes' | 'collectionModel' | 'forgetCollectionModel'>,
  collection: string,
): Promise<boolean> {
  const parts = partsCollectionName(collection);
  if (!(await ownsParts(journal, collection, hasPartsLayout(await admin.readCollection(parts)))))
    return false;
  await admin.deleteCollection(parts);
  await journal.partsIndexes.forget(collection);
  await journal.forgetCollectionModel(parts);
  return true;
}

/** A route's collection, its target or its previous collection, or a reembed's target. */
async function isRouted(routes: Journal['routes'], name: string): Promise<boolean> {
  return (
    (await routes.resolve(name)) !== name ||
    (await routes.routeOf(name)) !== undefined ||
    (await routes.isReembedTarget(name))
  );
}
