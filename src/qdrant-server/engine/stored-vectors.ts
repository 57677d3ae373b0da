/**
 * @module Reads points' dense vectors back from the store's SQLite rows by id, for vectors kept on disk
 * (Qdrant's `on_disk: true`): the same f32 bytes the upsert wrote, so every score computed from them is the
 * one the in-RAM block would give, bit for bit.
 */
import type { DenseSlot } from './point-table.js';
import type { SqlitePersistence, StoredVectorColumns } from './sqlite-persistence.js';
import { decodeNamedVectors } from './vector-codec.js';
import type { VectorSource } from './vector-slots.js';

/**
 * The f32 values in a SQLite blob, copied (blobs need not be 4-byte aligned, and callers keep the array); the
 * bytes are the platform's order, as loading reads them (collection-engine.ts).
 */
function floatsOf(blob: Buffer): Float32Array {
  const copy = new Float32Array(blob.byteLength / 4);
  new Uint8Array(copy.buffer).set(blob);
  return copy;
}

/** Vector `name` of one point's stored columns: the unnamed column for `""`, else the named blob (as loading reads them). */
function vectorOf(row: StoredVectorColumns, name: string): Float32Array | undefined {
  if (name === '' && row.vector !== null) return floatsOf(row.vector);
  if (row.vectors === null) return undefined;
  // Fresh arrays already (vector-codec.ts), read as loading reads them.
  return decodeNamedVectors(row.vectors).dense.get(name);
}

/** Vector `name` of one stored point. */
export function readStoredVector(
  db: SqlitePersistence,
  collection: string,
  key: string,
  name: string,
): Float32Array | undefined {
  const row = db.readPointVectors(collection, key);
  return row === undefined ? undefined : vectorOf(row, name);
}

/**
 * The source on-disk slots of vector `name` read from: a lone point by its primary key, several in batched
 * `IN (…)` statements (sqlite-persistence.ts), which spares a statement call per row.
 */
export function storedVectorSource(
  db: SqlitePersistence,
  collection: string,
  name: string,
): VectorSource<DenseSlot> {
  return (owners) => {
    if (owners.length === 1)
      return [readStoredVector(db, collection, (owners[0] as DenseSlot).point.key, name)];
    const rows = db.readPointVectorsBatch(
      collection,
      owners.map((owner) => owner.point.key),
    );
    return owners.map((owner) => {
      const row = rows.get(owner.point.key);
      return row === undefined ? undefined : vectorOf(row, name);
    });
  };
}

/**
 * Hands `put` vector `name` of every stored point of the collection, in one pass over its rows (far cheaper than
 * a lookup per point when all of them are read back, as when `on_disk` is turned off).
 */
export function scanStoredVectors(
  db: SqlitePersistence,
  collection: string,
  name: string,
  put: (key: string, vector: Float32Array) => void,
): void {
  for (const row of db.loadPoints(collection)) {
    const vector =
      name === '' && row.vector !== null
        ? floatsOf(row.vector)
        : row.vectors === null
          ? undefined
          : decodeNamedVectors(row.vectors).dense.get(name);
    if (vector !== undefined) put(row.key, vector);
  }
}
