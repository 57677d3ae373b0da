/**
 * @module `PUT /collections/{name}` body (qdrant-subset.md §1). `vectors` is Qdrant's untagged enum VectorsConfig:
 * one `{size, distance}` or a map of named ones; the embedded store supports the single unnamed vector only.
 */
import type { CollectionSpec, Distance, VectorParams } from '../engine/engine-api.js';
import { formatError, unsupported, validationError } from '../qdrant-error.js';
import { isJsonObject, type JsonObject, readObject } from './body-shape.js';

/** Case-sensitive, as Qdrant's Distance enum. */
const DISTANCES: readonly string[] = ['Cosine', 'Euclid', 'Dot', 'Manhattan'];
const MAX_VECTOR_SIZE = 65536;

/** Whether a value deserialises as Qdrant's VectorParams: a positive integer size and a known distance. */
function isVectorParams(value: unknown): value is JsonObject & { size: number; distance: Distance } {
  return (
    isJsonObject(value) &&
    typeof value.size === 'number' &&
    Number.isInteger(value.size) &&
    value.size > 0 &&
    typeof value.distance === 'string' &&
    DISTANCES.includes(value.distance)
  );
}

function parseVectors(value: unknown): VectorParams | null {
  if (value === undefined || value === null) return null;
  if (!isVectorParams(value)) {
    const isNamedMap = isJsonObject(value) && Object.values(value).every(isVectorParams);
    if (!isNamedMap) throw formatError('data did not match any variant of untagged enum VectorsConfig');
    // An empty map names no vectors: the collection has no dense vector, as when `vectors` is left out.
    if (Object.keys(value).length === 0) return null;
    throw unsupported('Named vectors');
  }
  const { size, distance, ...extras } = value;
  if (extras.multivector_config !== undefined && extras.multivector_config !== null) {
    throw unsupported('Multivectors (multivector_config)');
  }
  if (size > MAX_VECTOR_SIZE) {
    throw validationError([
      { path: 'vectors.size', message: `value ${size} invalid, must be from 1 to 65536` },
    ]);
  }
  return { size, distance, extras };
}

/** Parses the create body; other keys (hnsw_config, on_disk_payload, …) are kept for the engine to echo. */
export function parseCollectionSpec(json: unknown): CollectionSpec {
  const body = readObject(json, 'struct CreateCollection');
  const { vectors, sparse_vectors, ...settings } = body;
  const parsed = parseVectors(vectors);
  if (isJsonObject(sparse_vectors) && Object.keys(sparse_vectors).length > 0)
    throw unsupported('Sparse vectors');
  if (body.init_from !== undefined && body.init_from !== null) throw unsupported('init_from');
  return { vectors: parsed, settings };
}
