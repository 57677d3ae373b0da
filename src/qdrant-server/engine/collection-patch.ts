/**
 * @module `PATCH /collections/{name}` (UpdateCollection, `lib/collection/src/operations/config_diff.rs`): the new
 * spec after a patch. Config sections are diffs merged into what the collection has (`hnsw_config`,
 * `optimizers_config`, `params`, each vector's `hnsw_config`, a sparse vector's `index`); `quantization_config` is
 * replaced (`"Disabled"` removes it); a sparse vector's `modifier` changes how its queries score. The embedded store
 * is exact, so the speed knobs change no result: they are kept and reported by `GET /collections/{name}`.
 */
import { badInput } from '../qdrant-error.js';
import type { CollectionPatch, CollectionSpec, SparseVectorParams, VectorParams } from './engine-api.js';

type Json = Readonly<Record<string, unknown>>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A diff merged over what is there; a key absent from the diff keeps its value. */
function mergeDiff(current: unknown, diff: Json | undefined): Json | undefined {
  if (diff === undefined) return isObject(current) ? current : undefined;
  return { ...(isObject(current) ? current : {}), ...diff };
}

/** Sets or removes one key of a record without touching the others. */
function withKey(record: Json, key: string, value: unknown): Json {
  const { [key]: _old, ...rest } = record;
  return value === undefined || value === null ? rest : { ...rest, [key]: value };
}

function patchDense(params: VectorParams, diff: Json): VectorParams {
  let extras: Json = params.extras;
  if (isObject(diff.hnsw_config))
    extras = withKey(extras, 'hnsw_config', mergeDiff(extras.hnsw_config, diff.hnsw_config));
  if (diff.quantization_config !== undefined) {
    extras = withKey(
      extras,
      'quantization_config',
      diff.quantization_config === 'Disabled' ? null : diff.quantization_config,
    );
  }
  if (typeof diff.on_disk === 'boolean') extras = withKey(extras, 'on_disk', diff.on_disk);
  return { ...params, extras };
}

function patchSparse(params: SparseVectorParams, diff: Json): SparseVectorParams {
  const index = isObject(diff.index) ? mergeDiff(params.index, diff.index) : params.index;
  const modifier = diff.modifier === 'none' || diff.modifier === 'idf' ? diff.modifier : params.modifier;
  return { ...(modifier === undefined ? {} : { modifier }), ...(index === undefined ? {} : { index }) };
}

/** The spec after the patch; an unknown vector name is a 400 before anything changes. */
export function patchCollectionSpec(spec: CollectionSpec, patch: CollectionPatch): CollectionSpec {
  let vectors = spec.vectors;
  let named = { ...(spec.namedVectors ?? {}) };
  for (const [name, diff] of Object.entries(patch.vectors ?? {})) {
    if (name === '' && vectors !== null) vectors = patchDense(vectors, diff);
    else if (vectors === null && Object.hasOwn(named, name))
      named = { ...named, [name]: patchDense(named[name] as VectorParams, diff) };
    else throw badInput(`Not existing vector name error: ${name}`);
  }
  let sparse = { ...(spec.sparseVectors ?? {}) };
  for (const [name, diff] of Object.entries(patch.sparse_vectors ?? {})) {
    if (!Object.hasOwn(sparse, name)) throw badInput(`Not existing vector name error: ${name}`);
    sparse = { ...sparse, [name]: patchSparse(sparse[name] as SparseVectorParams, diff) };
  }
  let settings: Json = { ...spec.settings, ...(patch.params ?? {}) };
  for (const key of ['hnsw_config', 'optimizers_config'] as const) {
    if (patch[key] !== undefined) settings = withKey(settings, key, mergeDiff(settings[key], patch[key]));
  }
  if (patch.metadata !== undefined) {
    // A metadata key set to null is removed (test_collection_metadata).
    const merged = Object.entries(mergeDiff(settings.metadata, patch.metadata) ?? {}).filter(
      ([, value]) => value !== null,
    );
    settings = withKey(settings, 'metadata', Object.fromEntries(merged));
  }
  if (patch.quantization_config !== undefined) {
    settings = withKey(
      settings,
      'quantization_config',
      patch.quantization_config === 'Disabled' ? null : patch.quantization_config,
    );
  }
  return {
    vectors,
    ...(spec.namedVectors === undefined ? {} : { namedVectors: named }),
    ...(spec.sparseVectors === undefined ? {} : { sparseVectors: sparse }),
    settings,
  };
}
