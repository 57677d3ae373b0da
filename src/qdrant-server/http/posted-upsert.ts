/**
 * @module Upserts handed to the store by a caller in the same process (the memory service, over the store
 * thread's port), with vectors as Float32Arrays instead of JSON: the same checks and the same answers as
 * `PUT /collections/{name}/points`, without writing, sending and parsing ~20 characters per vector component,
 * and without copying the vectors into plain arrays on the way (the engine copies each once, into its own).
 */
import type { StoreEngine } from '../engine/engine-api.js';
import { isQdrantError, QdrantError } from '../qdrant-error.js';
import type { StoreLogger } from '../store-logger.js';
import { assertCollectionName } from './assert-collection-name.js';
import { parseUpsert } from './parse-upsert.js';

/** A sparse vector as posted (the same lists as in JSON). */
export interface PostedSparseVector {
  readonly indices: readonly number[];
  readonly values: readonly number[];
}

/** A point's vector as posted: the unnamed dense vector, or vectors by name (dense or sparse). */
export type PostedVector = Float32Array | Readonly<Record<string, Float32Array | PostedSparseVector>>;

/** Points to upsert into one collection: `vectors[i]` and `payloads[i]` are `ids[i]`'s. */
export interface UpsertBatch {
  readonly ids: readonly (string | number)[];
  readonly vectors: readonly PostedVector[];
  /**
   * The payloads as one JSON array, read as a REST body's payloads are (a key whose value is undefined is
   * left out, a Date is its ISO string): small beside the vectors, and never different from the REST path.
   */
  readonly payloads: string;
}

/**
 * Applies `batch` to `collection` as `PUT /collections/{name}/points?wait=true` would: same validation, same
 * write (committed when this returns). Throws the QdrantError that route would answer with; anything else
 * (an I/O failure) is logged and thrown as its 500 `Service internal error`.
 */
export function applyUpsertBatch(
  engine: StoreEngine,
  collection: string,
  batch: UpsertBatch,
  logger?: StoreLogger,
): void {
  try {
    const payloads = JSON.parse(batch.payloads) as unknown[];
    // The Float32Arrays go to parseUpsert as they are: it takes them as the JSON arrays they stand for (a
    // dense vector of f32 numbers), with the same checks after (empty, sparse rules, names, dimensions).
    const points = batch.ids.map((id, i) => ({ id, vector: batch.vectors[i], payload: payloads[i] }));
    engine.collection(assertCollectionName(collection)).upsert(parseUpsert({ points }));
  } catch (error) {
    if (isQdrantError(error)) throw error;
    const message = error instanceof Error ? error.message : String(error);
    logger?.error({ err: error, collection }, 'embedded store posted upsert failed');
    throw new QdrantError(500, `Service internal error: ${message}`);
  }
}
