/** @module Where a collection's parts live: a collection of memory-pool's own, next to the shared one. */

/**
 * `<collection>__parts`. No st-qdrant-memory writer can produce the name: upstream (and the forks that
 * rename) collapse every run of `_` to one, so `__` never appears in their names; Qdrant accepts it.
 */
export function partsCollectionName(collection: string): string {
  return `${collection}__parts`;
}
