/**
 * @module `PATCH /collections/{name}` body (UpdateCollection, `lib/storage/src/content_manager/collection_meta_ops.rs`):
 * each section is an object or absent. Strict mode changes which requests are refused; the embedded store does not
 * enforce it, so turning it on is refused by name rather than accepted and ignored.
 */
import type { CollectionPatch } from '../engine/engine-api.js';
import { unsupported } from '../qdrant-error.js';
import { invalidType, isJsonObject, type JsonObject, readObject } from './body-shape.js';
import { checkHnswConfig } from './check-hnsw-config.js';
import { renameSerdeAliases, UPDATE_COLLECTION_ALIASES } from './rename-serde-aliases.js';

const SECTIONS = ['params', 'hnsw_config', 'optimizers_config', 'metadata'] as const;
const PER_VECTOR = ['vectors', 'sparse_vectors'] as const;

function readSection(body: JsonObject, key: string): JsonObject | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (!isJsonObject(value)) throw invalidType(value, 'a map');
  return value;
}

/** Parses the body; nothing is applied until the whole body is checked. */
export function parseCollectionPatch(json: unknown): CollectionPatch {
  const body = renameSerdeAliases(readObject(json, 'struct UpdateCollection'), UPDATE_COLLECTION_ALIASES);
  const strict = readSection(body, 'strict_mode_config');
  if (strict !== undefined && strict.enabled === true)
    throw unsupported('Strict mode (strict_mode_config.enabled)');
  const patch: Record<string, unknown> = {};
  for (const key of SECTIONS) {
    const section = readSection(body, key);
    if (section !== undefined) patch[key] = section;
  }
  checkHnswConfig(patch.hnsw_config, 'hnsw_config');
  for (const key of PER_VECTOR) {
    const section = readSection(body, key);
    if (section === undefined) continue;
    for (const [name, diff] of Object.entries(section)) {
      if (!isJsonObject(diff)) throw invalidType(diff, 'a map');
      checkHnswConfig(diff.hnsw_config, `${key}.${name}.hnsw_config`);
      // VectorParamsDiff's `on_disk` is an Option<bool>: anything else is serde's type error, as in Qdrant.
      const onDisk = diff.on_disk;
      if (onDisk !== undefined && onDisk !== null && typeof onDisk !== 'boolean')
        throw invalidType(onDisk, 'a boolean');
    }
    patch[key] = section;
  }
  const quantization = body.quantization_config;
  if (quantization === 'Disabled') patch.quantization_config = 'Disabled';
  else if (quantization !== undefined && quantization !== null) {
    if (!isJsonObject(quantization)) throw invalidType(quantization, 'a map or "Disabled"');
    patch.quantization_config = quantization;
  }
  return patch as CollectionPatch;
}
