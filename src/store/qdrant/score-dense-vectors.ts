/**
 * @module The query's cosine with some points' dense vectors. The embedded store in this process computes them on
 * its thread and answers numbers (posted-dense-cosines.ts); a Qdrant over REST has no such read, so the vectors
 * are read by id and the cosines computed here, over the same f32 values, so both answer the same numbers.
 */
import type { QdrantClient } from '@qdrant/js-client-rest';
import { computeCosine } from '../../runtime/cosine-similarity.js';
import { DENSE_VECTOR } from '../hybrid-point-store.js';
import type { StoredPointId } from '../point-store.js';

/** The embedded store's dense-cosines read without REST (its QdrantServer.denseCosines). */
export interface PostedDenseCosines {
  denseCosines(
    collection: string,
    request: {
      readonly using: string;
      readonly vector: Float32Array | readonly number[];
      readonly ids: readonly (string | number)[];
    },
  ): Promise<[string, number][]>;
}

/** Cosine by id (as a string) for each of `ids` with a dense vector: over `posted` when given, else by REST. */
export async function scoreDenseVectors(
  client: QdrantClient,
  posted: PostedDenseCosines | undefined,
  collection: string,
  vector: Float32Array | readonly number[],
  ids: readonly StoredPointId[],
): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  if (posted !== undefined) {
    return new Map(await posted.denseCosines(collection, { using: DENSE_VECTOR, vector, ids: [...ids] }));
  }
  const records = await client.retrieve(collection, {
    ids: [...ids],
    with_payload: false,
    with_vector: [DENSE_VECTOR],
  });
  const cosines = new Map<string, number>();
  for (const record of records) {
    const dense = (record.vector as Record<string, unknown> | undefined)?.[DENSE_VECTOR];
    // The store prints each f32 as its shortest decimal; Math.fround reads back the very f32 it stored.
    if (Array.isArray(dense)) {
      cosines.set(String(record.id), computeCosine(vector, (dense as number[]).map(Math.fround)));
    }
  }
  return cosines;
}
