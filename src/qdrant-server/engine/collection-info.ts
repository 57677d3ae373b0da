/** @module `GET /collections/{name}`: the CollectionInfo JSON (qdrant-subset.md §1) and payload_schema counts. */
import { parseDateTime, setOwn, valuesAtPath } from '../filter/index.js';
import { collectCollectionWarnings } from './collection-warnings.js';
import type { CollectionSpec, PayloadFieldSchema, VectorParams } from './engine-api.js';
import { parseUuid } from './point-id.js';
import type { PointTable } from './point-table.js';
import type { VectorConfig } from './vector-config.js';

const HNSW_DEFAULTS = { m: 16, ef_construct: 100, full_scan_threshold: 10000, max_indexing_threads: 0 };
const OPTIMIZER_DEFAULTS = {
  deleted_threshold: 0.2,
  vacuum_min_vector_number: 1000,
  default_segment_number: 0,
  max_segment_size: null,
  memmap_threshold: null,
  indexing_threshold: 10000,
  flush_interval_sec: 5,
  max_optimization_threads: null,
  prevent_unoptimized: null,
};
const WAL_DEFAULTS = { wal_capacity_mb: 32, wal_segments_ahead: 0, wal_retain_closed: 1 };

function objectOr(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/** Builds the info object; the client's own settings override Qdrant's defaults where it sent them. */
export function describeCollection(
  spec: CollectionSpec,
  vectorConfig: VectorConfig,
  indexes: ReadonlyMap<string, PayloadFieldSchema>,
  table: PointTable,
): Record<string, unknown> {
  const settings = spec.settings;
  const describe = (params: VectorParams) => ({
    size: params.size,
    distance: params.distance,
    ...params.extras,
  });
  // The single form prints its params; the named form a map by name (st reads `.vectors.default.size`).
  const vectors: Record<string, unknown> =
    spec.vectors !== null
      ? describe(spec.vectors)
      : Object.fromEntries([...vectorConfig.dense].map(([name, params]) => [name, describe(params)]));
  const params: Record<string, unknown> = {
    vectors,
    shard_number: settings.shard_number ?? 1,
    replication_factor: settings.replication_factor ?? 1,
    write_consistency_factor: settings.write_consistency_factor ?? 1,
    on_disk_payload: settings.on_disk_payload ?? true,
  };
  // Qdrant leaves `sparse_vectors` out when the collection has none (skip_serializing_if).
  if (vectorConfig.sparse.size > 0) params.sparse_vectors = Object.fromEntries(vectorConfig.sparse);
  const payloadSchema: Record<string, unknown> = {};
  for (const [field, schema] of indexes) {
    const entry: Record<string, unknown> = { data_type: schema.type };
    if (schema.params !== undefined) entry.params = schema.params;
    entry.points = countIndexedPoints(table, field, schema.type);
    // Field names are client text (`__proto__` included): define, never assign.
    setOwn(payloadSchema, field, entry);
  }
  const denseVectors = spec.vectors !== null ? [['', spec.vectors] as const] : vectorConfig.dense;
  const warnings = collectCollectionWarnings(settings, denseVectors);
  return {
    status: 'green',
    optimizer_status: 'ok',
    // Qdrant leaves `warnings` out when there are none (skip_serializing_if).
    ...(warnings.length > 0 ? { warnings } : {}),
    // Vectors in an approximate index (graph-index.ts); 0 while every search is exact, as in Qdrant.
    indexed_vectors_count: [...table.graphs.values()].reduce((sum, graph) => sum + graph.indexedCount, 0),
    points_count: table.size,
    segments_count: 1,
    config: {
      params,
      hnsw_config: { ...HNSW_DEFAULTS, ...objectOr(settings.hnsw_config) },
      optimizer_config: { ...OPTIMIZER_DEFAULTS, ...objectOr(settings.optimizers_config) },
      wal_config: { ...WAL_DEFAULTS, ...objectOr(settings.wal_config) },
      quantization_config: settings.quantization_config ?? null,
      // Qdrant leaves `metadata` out when the collection has none.
      ...(settings.metadata === undefined || settings.metadata === null
        ? {}
        : { metadata: settings.metadata }),
    },
    payload_schema: payloadSchema,
    update_queue: { length: 0 },
  };
}

/** Whether one payload value would be indexed by an index of this type. */
export function isIndexable(type: PayloadFieldSchema['type'], value: unknown): boolean {
  switch (type) {
    case 'keyword':
    case 'text':
      return typeof value === 'string';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'float':
      return typeof value === 'number';
    case 'bool':
      return typeof value === 'boolean';
    case 'datetime':
      return typeof value === 'string' && parseDateTime(value) !== undefined;
    case 'uuid':
      return typeof value === 'string' && parseUuid(value) !== undefined;
    case 'geo': {
      const point = value as { lat?: unknown; lon?: unknown } | null;
      return (
        typeof point === 'object' &&
        point !== null &&
        typeof point.lat === 'number' &&
        typeof point.lon === 'number'
      );
    }
  }
}

/** The values an index sees at a path: the multi-value, looking one level into arrays (qdrant-subset.md §4.2). */
export function indexedValues(payload: Record<string, unknown>, path: string): unknown[] {
  return valuesAtPath(payload, path).flatMap((value) => (Array.isArray(value) ? value : [value]));
}

/** Each table's counts by field and type, with the table's `writes` they were counted at. */
const indexedCounts = new WeakMap<PointTable, Map<string, { readonly writes: number; readonly count: number }>>();

/**
 * `payload_schema[field].points`: points with at least one value of the index's type at that path. Counted once
 * per table state: each `GET /collections/{name}` walked every point per index (900,000 parts, twice, at
 * 100,000 chunks: seconds of the store's thread at a start, when the service and its clients read the
 * collections, past recall's deadline).
 */
export function countIndexedPoints(
  table: PointTable,
  field: string,
  type: PayloadFieldSchema['type'],
): number {
  const counts = indexedCounts.get(table) ?? new Map<string, { writes: number; count: number }>();
  indexedCounts.set(table, counts);
  const name = `${type}\u0000${field}`;
  const known = counts.get(name);
  if (known !== undefined && known.writes === table.writes) return known.count;
  let count = 0;
  for (const entry of table.values()) {
    if (indexedValues(entry.payload, field).some((value) => isIndexable(type, value))) count++;
  }
  counts.set(name, { writes: table.writes, count });
  return count;
}
