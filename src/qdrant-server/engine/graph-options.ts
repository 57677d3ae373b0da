/**
 * @module Each dense vector name's HNSW settings from the collection's `hnsw_config` (Qdrant's names and
 * defaults: m 16, ef_construct 100, full_scan_threshold 10000 KB) and where it is built (`optimizers_config`'s
 * `indexing_threshold`), as graph-index.ts needs them.
 */
import type { CollectionSpec } from './engine-api.js';
import type { GraphOptions } from './graph-index.js';
import type { VectorConfig } from './vector-config.js';

const DEFAULT_M = 16;
const DEFAULT_EF_CONSTRUCT = 100;
/** Qdrant's default `full_scan_threshold`, in kilobytes of vectors. */
const DEFAULT_FULL_SCAN_KB = 10_000;
/**
 * Bounds usearch is given whatever the client sent: it throws on fewer than 2 links, and a huge `m` or
 * `ef_construct` allocates gigabytes per graph. The echoed `hnsw_config` stays as sent.
 */
const M_RANGE = [2, 128] as const;
const EF_CONSTRUCT_RANGE = [4, 1024] as const;

function clamp(value: number, [low, high]: readonly [number, number]): number {
  return Math.min(high, Math.max(low, value));
}

function objectOr(raw: unknown): Record<string, unknown> {
  return raw !== null && typeof raw === 'object' && !Array.isArray(raw)
    ? (raw as Record<string, unknown>)
    : {};
}

/** A non-negative integer setting, or the default when the client sent none (or nonsense, echoed as sent). */
function readCount(settings: Record<string, unknown>, key: string, fallback: number): number {
  const value = settings[key];
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : fallback;
}

/**
 * The graph settings of every dense vector. Qdrant turns `full_scan_threshold` (KB) into points by the
 * vectors' size; the embedded store's exact search scans int8 codes (one byte a dimension, vector-slots.ts),
 * so the same budget of bytes scanned is `KB · 1024 / dim` vectors: 20,000 of 512 dimensions, 6,826 of 1536.
 * `m: 0` turns the graph off, as in Qdrant. A vector's own `hnsw_config` (VectorParams) overrides the
 * collection's key by key, as Qdrant merges them.
 */
export function readGraphOptions(spec: CollectionSpec, vectors: VectorConfig): Map<string, GraphOptions> {
  const collection = objectOr(spec.settings.hnsw_config);
  const options = new Map<string, GraphOptions>();
  for (const [name, params] of vectors.dense) {
    const hnsw = { ...collection, ...objectOr(params.extras.hnsw_config) };
    const m = readCount(hnsw, 'm', DEFAULT_M);
    const efConstruct = clamp(readCount(hnsw, 'ef_construct', DEFAULT_EF_CONSTRUCT), EF_CONSTRUCT_RANGE);
    const kilobytes = readCount(hnsw, 'full_scan_threshold', DEFAULT_FULL_SCAN_KB);
    const threshold =
      m === 0 ? Number.POSITIVE_INFINITY : Math.max(1, Math.floor((kilobytes * 1024) / params.size));
    const buildAt = m === 0 ? undefined : readBuildAt(spec, params.size);
    options.set(name, {
      distance: params.distance,
      m: clamp(m, M_RANGE),
      efConstruct,
      threshold,
      ...(buildAt === undefined ? {} : { buildAt }),
    });
  }
  return options;
}

/**
 * Where the graph is built when the collection sets `optimizers_config.indexing_threshold` (KB of f32
 * vectors, Qdrant's indexing optimizer: 1 KB is one 256-dimension vector; 0 disables indexing), so
 * `indexed_vectors_count` says what Qdrant's does. Unset, the graph is built where searches start using it.
 */
function readBuildAt(spec: CollectionSpec, size: number): number | undefined {
  const optimizers = objectOr(spec.settings.optimizers_config);
  const kilobytes = readCount(
    optimizers,
    'indexing_threshold',
    readCount(optimizers, 'indexing_threshold_kb', -1),
  );
  if (kilobytes < 0) return undefined;
  return kilobytes === 0
    ? Number.POSITIVE_INFINITY
    : Math.max(1, Math.floor((kilobytes * 1024) / (size * 4)));
}
