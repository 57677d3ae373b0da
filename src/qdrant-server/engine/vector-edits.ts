/**
 * @module Editing some of a point's vectors and keeping the rest (`PUT /points/vectors`, `POST /points/vectors/delete`),
 * as Qdrant's `lib/shard/src/update/vectors.rs` does: an update merges the named vectors into the point's, a delete
 * drops the named ones; payload and the other vectors stay.
 */
import type { PointEntry, PointTable, PointVectors, SparseVectorData } from './point-table.js';

/** A copy of everything a point holds now, ready to be merged and put back. */
export function readPointVectors(table: PointTable, entry: PointEntry): PointVectors {
  const dense = new Map<string, Float32Array>();
  for (const [name, owner] of entry.dense) {
    const slots = table.dense.get(name);
    const vector = slots === undefined || owner.slot < 0 ? undefined : slots.copy(owner.slot);
    if (vector !== undefined) dense.set(name, vector);
  }
  const sparse = new Map<string, SparseVectorData>();
  for (const [name, doc] of entry.sparse) sparse.set(name, { indices: doc.indices, values: doc.values });
  return { dense, sparse };
}

/** The point's vectors with `update`'s names replaced or added. */
export function mergeVectors(current: PointVectors, update: PointVectors): PointVectors {
  return {
    dense: new Map([...current.dense, ...update.dense]),
    sparse: new Map([...current.sparse, ...update.sparse]),
  };
}

/** The point's vectors without the named ones (a name it lacks is no error). */
export function dropVectors(current: PointVectors, names: readonly string[]): PointVectors {
  return {
    dense: new Map([...current.dense].filter(([name]) => !names.includes(name))),
    sparse: new Map([...current.sparse].filter(([name]) => !names.includes(name))),
  };
}
