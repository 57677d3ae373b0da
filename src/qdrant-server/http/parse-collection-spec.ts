/**
 * @module `PUT /collections/{name}` body (qdrant-subset.md §1). `vectors` is Qdrant's untagged enum VectorsConfig:
 * one `{size, distance}` or a map of named ones; `sparse_vectors` is a map of SparseVectorParams (qdrant-hybrid.md §1).
 */
import type { CollectionSpec, Distance, SparseVectorParams, VectorParams } from '../engine/engine-api.js';
import { setOwn } from '../filter/index.js';
import { badInput, type FieldViolation, formatError, unsupported, validationError } from '../qdrant-error.js';
import { invalidType, isJsonObject, type JsonObject, readObject } from './body-shape.js';
import { checkHnswConfig } from './check-hnsw-config.js';
import { CREATE_COLLECTION_ALIASES, renameSerdeAliases } from './rename-serde-aliases.js';

/** Case-sensitive, as Qdrant's Distance enum. */
const DISTANCES: readonly string[] = ['Cosine', 'Euclid', 'Dot', 'Manhattan'];
const MAX_VECTOR_SIZE = 65536;

/** Whether a value deserializes as Qdrant's VectorParams: a positive integer size and a known distance. */
function isVectorParams(value: unknown): value is JsonObject & { size: number; distance: Distance } {
  return (
    isJsonObject(value) &&
    typeof value.size === 'number' &&
    Number.isInteger(value.size) &&
    value.size > 0 &&
    typeof value.distance === 'string' &&
    DISTANCES.includes(value.distance) &&
    // `on_disk` is an Option<bool>: another type fails the variant, hence the untagged enum's error.
    (value.on_disk === undefined || value.on_disk === null || typeof value.on_disk === 'boolean')
  );
}

/** One `{size, distance, ...}`; `path` is the validator's field path (`vectors`, `vectors.NAME`). */
function readVectorParams(
  value: JsonObject & { size: number; distance: Distance },
  path: string,
): VectorParams {
  const { size, distance, ...extras } = value;
  if (extras.multivector_config !== undefined && extras.multivector_config !== null) {
    throw unsupported('Multivectors (multivector_config)');
  }
  if (size > MAX_VECTOR_SIZE) {
    throw validationError([
      { path: `${path}.size`, message: `value ${size} invalid, must be from 1 to 65536` },
    ]);
  }
  checkHnswConfig(extras.hnsw_config, `${path}.hnsw_config`);
  return { size, distance, extras };
}

/** `vectors`: the single unnamed form, or a map of names (an empty map names no vector). */
function parseVectors(value: unknown): Pick<CollectionSpec, 'vectors' | 'namedVectors'> {
  if (value === undefined || value === null) return { vectors: null };
  if (isVectorParams(value)) return { vectors: readVectorParams(value, 'vectors') };
  const isNamedMap = isJsonObject(value) && Object.values(value).every(isVectorParams);
  if (!isNamedMap) throw formatError('data did not match any variant of untagged enum VectorsConfig');
  const named: Record<string, VectorParams> = {};
  for (const [name, params] of Object.entries(value)) {
    setOwn(
      named,
      name,
      readVectorParams(params as JsonObject & { size: number; distance: Distance }, `vectors.${name}`),
    );
  }
  return { vectors: null, namedVectors: named };
}

/** `sparse_vectors.NAME`: `{modifier?: "none" | "idf", index?: {...}}`; other keys are ignored, as serde does. */
function parseSparseParams(name: string, value: unknown): SparseVectorParams {
  const body = isJsonObject(value) ? value : undefined;
  if (body === undefined)
    throw formatError(`invalid type: ${JSON.stringify(value)}, expected struct SparseVectorParams`);
  const modifier = body.modifier;
  const params: { modifier?: 'none' | 'idf'; index?: Record<string, unknown> } = {};
  if (modifier !== undefined && modifier !== null) {
    if (modifier !== 'none' && modifier !== 'idf') {
      throw formatError(`unknown variant \`${String(modifier)}\`, expected \`none\` or \`idf\``);
    }
    params.modifier = modifier;
  }
  if (body.index !== undefined && body.index !== null) {
    if (!isJsonObject(body.index)) throw formatError('invalid type: expected struct SparseIndexParams');
    // Qdrant's validator (common/validation.rs): turbo4 is a dense quantization, never a sparse datatype.
    if (body.index.datatype === 'turbo4') {
      throw validationError([
        {
          path: `sparse_vectors.${name}.index.datatype`,
          message: 'sparse vectors do not support the `turbo4` datatype',
        },
      ]);
    }
    params.index = body.index;
  }
  return params;
}

function parseSparseVectors(value: unknown, dense: readonly string[]): Record<string, SparseVectorParams> {
  if (value === undefined || value === null) return {};
  if (!isJsonObject(value)) throw formatError('invalid type: expected a map of sparse vector params');
  const sparse: Record<string, SparseVectorParams> = {};
  for (const [name, params] of Object.entries(value)) setOwn(sparse, name, parseSparseParams(name, params));
  // Checked after parsing, in Qdrant's order (`collection_meta_ops.rs::CreateCollectionOperation::new`).
  if (Object.hasOwn(sparse, '')) throw badInput('Sparse vector name cannot be empty');
  const duplicate = dense.find((name) => Object.hasOwn(sparse, name));
  if (duplicate !== undefined) {
    throw badInput(`Dense and sparse vector names must be unique - duplicate found with '${duplicate}'`);
  }
  return sparse;
}

/** Counts Qdrant declares `NonZeroU32`-like: a u32 (serde, 400) validated `range(min = 1)` (422). */
const POSITIVE_COUNTS = ['shard_number', 'replication_factor', 'write_consistency_factor'] as const;

function checkPositiveCounts(body: Record<string, unknown>): void {
  const violations: FieldViolation[] = [];
  for (const field of POSITIVE_COUNTS) {
    const value = body[field];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'number' || !Number.isInteger(value)) throw invalidType(value, 'u32');
    if (value < 0 || value > 0xffff_ffff)
      throw formatError(`invalid value: integer \`${value}\`, expected u32`);
    if (value === 0) violations.push({ path: field, message: 'value 0 invalid, must be 1 or larger' });
  }
  if (violations.length > 0) throw validationError(violations);
}

/** Parses the create body; other keys (hnsw_config, on_disk_payload, …) are kept for the engine to echo. */
export function parseCollectionSpec(json: unknown): CollectionSpec {
  const body = renameSerdeAliases(readObject(json, 'struct CreateCollection'), CREATE_COLLECTION_ALIASES);
  const { vectors, sparse_vectors, ...settings } = body;
  const dense = parseVectors(vectors);
  const denseNames = dense.vectors === null ? Object.keys(dense.namedVectors ?? {}) : [''];
  const sparseVectors = parseSparseVectors(sparse_vectors, denseNames);
  if (body.init_from !== undefined && body.init_from !== null) throw unsupported('init_from');
  checkPositiveCounts(body);
  checkHnswConfig(body.hnsw_config, 'hnsw_config');
  return { ...dense, sparseVectors, settings };
}
