/**
 * @module CollectionInfo's `warnings` (`lib/collection/src/config.rs::CollectionConfigInternal::get_warnings`):
 * options that are accepted but have no effect as configured, said in the info instead of silently.
 */
import type { VectorParams } from './engine-api.js';

/** One warning, as Qdrant's `CollectionWarning` serializes it. */
export interface CollectionWarning {
  readonly message: string;
}

const isSet = (value: unknown): boolean => value !== undefined && value !== null;

function objectAt(holder: Readonly<Record<string, unknown>>, key: string): Record<string, unknown> {
  const value = holder[key];
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/**
 * A dense vector whose HNSW `inline_storage` is on (its own hnsw_config over the collection's) with no
 * quantization, its own or the collection's, is warned of, as Qdrant does: inline storage needs quantized
 * vectors. (Multivectors, Qdrant's other warning, are refused by this store.)
 */
export function collectCollectionWarnings(
  settings: Readonly<Record<string, unknown>>,
  vectors: Iterable<readonly [string, VectorParams]>,
): CollectionWarning[] {
  const warnings: CollectionWarning[] = [];
  for (const [name, params] of vectors) {
    const inline =
      objectAt(params.extras, 'hnsw_config').inline_storage ??
      objectAt(settings, 'hnsw_config').inline_storage;
    if (inline !== true) continue;
    if (isSet(params.extras.quantization_config) || isSet(settings.quantization_config)) continue;
    warnings.push({
      message: `The \`hnsw_config.inline_storage\` option for vector '${name}' requires quantization to be enabled. This option will be ignored.`,
    });
  }
  return warnings;
}
