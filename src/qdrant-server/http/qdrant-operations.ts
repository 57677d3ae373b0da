/**
 * @module Every operation of Qdrant's REST API (docs/redoc/master/openapi.json at v1.19.0, 69 operations), and whether
 * the embedded store serves it. The ones it does not serve answer a 400 naming the operation (refused-routes.ts),
 * never actix's empty 404, which a client would read as "collection not found". A fact list, not code: keep it in
 * Qdrant's order so a diff against a newer openapi.json reads line by line.
 */

/** One operation: HTTP method, Qdrant's path template, its operationId, and whether the store serves it. */
export interface QdrantOperation {
  readonly method: 'GET' | 'PUT' | 'POST' | 'DELETE' | 'PATCH';
  readonly path: string;
  readonly operationId: string;
  readonly served: boolean;
}

type Row = readonly [QdrantOperation['method'], string, string, boolean];

const ROWS: readonly Row[] = [
  ['PUT', '/collections/{collection_name}/shards', 'create_shard_key', false],
  ['GET', '/collections/{collection_name}/shards', 'list_shard_keys', false],
  ['POST', '/collections/{collection_name}/shards/delete', 'delete_shard_key', false],
  ['GET', '/', 'root', true],
  ['GET', '/telemetry', 'telemetry', false],
  ['GET', '/metrics', 'metrics', false],
  ['GET', '/healthz', 'healthz', true],
  ['GET', '/livez', 'livez', true],
  ['GET', '/readyz', 'readyz', true],
  ['GET', '/issues', 'get_issues', false],
  ['DELETE', '/issues', 'clear_issues', false],
  ['GET', '/cluster', 'cluster_status', false],
  ['GET', '/cluster/telemetry', 'cluster_telemetry', false],
  ['POST', '/cluster/recover', 'recover_current_peer', false],
  ['DELETE', '/cluster/peer/{peer_id}', 'remove_peer', false],
  ['GET', '/quotas', 'get_quotas', false],
  ['PUT', '/quotas', 'update_quotas', false],
  ['GET', '/collections', 'get_collections', true],
  ['GET', '/collections/{collection_name}', 'get_collection', true],
  ['PUT', '/collections/{collection_name}', 'create_collection', true],
  ['PATCH', '/collections/{collection_name}', 'update_collection', true],
  ['DELETE', '/collections/{collection_name}', 'delete_collection', true],
  ['POST', '/collections/aliases', 'update_aliases', true],
  ['PUT', '/collections/{collection_name}/index', 'create_field_index', true],
  ['GET', '/collections/{collection_name}/exists', 'collection_exists', true],
  ['DELETE', '/collections/{collection_name}/index/{field_name}', 'delete_field_index', true],
  ['PUT', '/collections/{collection_name}/vectors/{vector_name}', 'create_vector_name', false],
  ['DELETE', '/collections/{collection_name}/vectors/{vector_name}', 'delete_vector_name', false],
  ['GET', '/collections/{collection_name}/cluster', 'collection_cluster_info', false],
  ['POST', '/collections/{collection_name}/cluster', 'update_collection_cluster', false],
  ['GET', '/collections/{collection_name}/optimizations', 'get_optimizations', false],
  ['GET', '/collections/{collection_name}/aliases', 'get_collection_aliases', true],
  ['GET', '/aliases', 'get_collections_aliases', true],
  ['POST', '/collections/{collection_name}/snapshots/upload', 'recover_from_uploaded_snapshot', false],
  ['PUT', '/collections/{collection_name}/snapshots/recover', 'recover_from_snapshot', false],
  ['GET', '/collections/{collection_name}/snapshots', 'list_snapshots', false],
  ['POST', '/collections/{collection_name}/snapshots', 'create_snapshot', false],
  ['DELETE', '/collections/{collection_name}/snapshots/{snapshot_name}', 'delete_snapshot', false],
  ['GET', '/collections/{collection_name}/snapshots/{snapshot_name}', 'get_snapshot', false],
  ['GET', '/snapshots', 'list_full_snapshots', false],
  ['POST', '/snapshots', 'create_full_snapshot', false],
  ['DELETE', '/snapshots/{snapshot_name}', 'delete_full_snapshot', false],
  ['GET', '/snapshots/{snapshot_name}', 'get_full_snapshot', false],
  ['GET', '/collections/{collection_name}/shards/{shard_id}/snapshot', 'stream_shard_snapshot', false],
  [
    'POST',
    '/collections/{collection_name}/shards/{shard_id}/snapshots/upload',
    'recover_shard_from_uploaded_snapshot',
    false,
  ],
  [
    'PUT',
    '/collections/{collection_name}/shards/{shard_id}/snapshots/recover',
    'recover_shard_from_snapshot',
    false,
  ],
  ['GET', '/collections/{collection_name}/shards/{shard_id}/snapshots', 'list_shard_snapshots', false],
  ['POST', '/collections/{collection_name}/shards/{shard_id}/snapshots', 'create_shard_snapshot', false],
  [
    'DELETE',
    '/collections/{collection_name}/shards/{shard_id}/snapshots/{snapshot_name}',
    'delete_shard_snapshot',
    false,
  ],
  [
    'GET',
    '/collections/{collection_name}/shards/{shard_id}/snapshots/{snapshot_name}',
    'get_shard_snapshot',
    false,
  ],
  ['GET', '/collections/{collection_name}/points/{id}', 'get_point', true],
  ['POST', '/collections/{collection_name}/points', 'get_points', true],
  ['PUT', '/collections/{collection_name}/points', 'upsert_points', true],
  ['POST', '/collections/{collection_name}/points/delete', 'delete_points', true],
  ['PUT', '/collections/{collection_name}/points/vectors', 'update_vectors', true],
  ['POST', '/collections/{collection_name}/points/vectors/delete', 'delete_vectors', true],
  ['POST', '/collections/{collection_name}/points/payload', 'set_payload', true],
  ['PUT', '/collections/{collection_name}/points/payload', 'overwrite_payload', true],
  ['POST', '/collections/{collection_name}/points/payload/delete', 'delete_payload', true],
  ['POST', '/collections/{collection_name}/points/payload/clear', 'clear_payload', true],
  ['POST', '/collections/{collection_name}/points/batch', 'batch_update', true],
  ['POST', '/collections/{collection_name}/points/scroll', 'scroll_points', true],
  ['POST', '/collections/{collection_name}/points/count', 'count_points', true],
  ['POST', '/collections/{collection_name}/facet', 'facet', true],
  ['POST', '/collections/{collection_name}/points/query', 'query_points', true],
  ['POST', '/collections/{collection_name}/points/query/batch', 'query_batch_points', true],
  ['POST', '/collections/{collection_name}/points/query/groups', 'query_points_groups', true],
  ['POST', '/collections/{collection_name}/points/search/matrix/pairs', 'search_matrix_pairs', false],
  ['POST', '/collections/{collection_name}/points/search/matrix/offsets', 'search_matrix_offsets', false],
];

/** Qdrant's operations in its own order. */
export const QDRANT_OPERATIONS: readonly QdrantOperation[] = ROWS.map(
  ([method, path, operationId, served]) => ({
    method,
    path,
    operationId,
    served,
  }),
);
