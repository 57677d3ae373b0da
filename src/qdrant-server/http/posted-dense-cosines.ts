/**
 * @module The query's cosine with some points' dense vectors, asked by a caller in the same process (the memory
 * service, over the store thread's port): numbers come back, not vectors. Reading the vectors over REST cost
 * recall 13-32 % of /retrieve's p50 (docs/recall.md), most of it printing 512 f32s per point as shortest decimals.
 * Not a Qdrant route, so a real Qdrant's vectors are read by id (src/store/qdrant/score-dense-vectors.ts).
 */
import { computeCosine } from '../../runtime/cosine-similarity.js';
import { parseJsonPointId } from '../engine/index.js';
import type { StoreEngine } from '../engine/engine-api.js';
import { isQdrantError, QdrantError } from '../qdrant-error.js';
import type { StoreLogger } from '../store-logger.js';
import { assertCollectionName } from './assert-collection-name.js';

/** The question: the cosine of `vector` with the dense vector `using` of each point in `ids`. */
export interface DenseCosinesRequest {
  readonly using: string;
  readonly vector: Float32Array | readonly number[];
  readonly ids: readonly (string | number)[];
}

/**
 * `[id, cosine]` for each id that exists and has the vector (ids as strings, as a REST read's `String(id)`),
 * computed in f64 over the stored f32 values. Throws the QdrantError a read of those ids would answer with;
 * anything else as a 500, logged.
 */
export function findDenseCosines(
  engine: StoreEngine,
  collection: string,
  request: DenseCosinesRequest,
  logger?: StoreLogger,
): [string, number][] {
  try {
    const ids = request.ids.map(parseJsonPointId);
    const records = engine
      .collection(assertCollectionName(collection))
      .retrieve(ids, { withPayload: { kind: 'none' }, withVector: [request.using] });
    return records.flatMap((record): [string, number][] => {
      const vectors = record.vector;
      const dense = Array.isArray(vectors) ? vectors : vectors?.[request.using];
      return Array.isArray(dense) ? [[String(record.id), computeCosine(request.vector, dense)]] : [];
    });
  } catch (error) {
    if (isQdrantError(error)) throw error;
    const message = error instanceof Error ? error.message : String(error);
    logger?.error({ err: error, collection }, 'embedded store dense-cosines read failed');
    throw new QdrantError(500, `Service internal error: ${message}`);
  }
}
