/**
 * @module `POST /points/query/groups`: a query's hits grouped by a payload key (qdrant-hybrid.md §3.5), with the
 * rules of Qdrant's aggregator (`lib/shard/src/grouping/aggregator.rs`): a point joins one group per distinct
 * string or integer value at the key (one level into arrays); a point with any other value type, or without the
 * key, joins none; the `limit` groups with the best best-hit are returned, each with its `group_size` best hits.
 */
import type { Condition, Filter } from '../filter/index.js';
import type { PointGroupRecord, PrefetchRequest, QueryGroupsRequest } from './engine-api.js';
import type { CollectionReader } from './collection-reader.js';
import { GroupsAggregator } from './groups-aggregator.js';
import { combineFilters, type QueryHit, runRootStage, toRecord } from './point-query.js';

/** Qdrant's budget of requests in each phase (`MAX_GET_GROUPS_REQUESTS`, `MAX_GROUP_FILLING_REQUESTS`). */
const COLLECT_ROUNDS = 5;
const FILL_ROUNDS = 5;

/**
 * Runs a grouped query in rounds, as Qdrant's `GroupByDriver` (`lib/shard/src/grouping/driver.rs`) does: each
 * round asks for `limit × group_size` hits of the shaped query, its root filter (which reaches every prefetch)
 * narrowed to leave out the points already collected, and the groups already full while collecting (up to 5
 * rounds, until the best `limit` groups are full or a round finds nothing), then only the best groups not yet
 * full (up to 5 more). Narrowing the filter, not raising a limit, is what lets a prefetch reach a later group.
 */
export async function runQueryGroups(
  reader: CollectionReader,
  request: QueryGroupsRequest,
): Promise<PointGroupRecord[]> {
  if (request.limit === 0 || request.groupSize === 0) return [];
  const shaped = shapeCandidatesQuery(request);
  const groups = new GroupsAggregator(request, rankOrder(reader, request));
  const round = async (narrowing: Condition[]) => {
    const ids = groups.ids();
    const filter: Filter = {
      must: narrowing.length > 0 ? narrowing : null,
      should: null,
      mustNot: ids.length > 0 ? [{ kind: 'has_id', ids }] : null,
      minShould: null,
    };
    const narrowed = narrowing.length > 0 || ids.length > 0 ? combineFilters(shaped.filter, filter) : shaped.filter;
    const hits = await runRootStage(
      reader,
      { ...shaped, ...(narrowed === undefined ? {} : { filter: narrowed }) },
      request.limit * request.groupSize,
    );
    groups.add(hits);
    return hits.length > 0;
  };
  let found = true;
  for (let i = 0; i < COLLECT_ROUNDS && found && !groups.enough(); i++) {
    found = await round(matchKeys(request.groupBy, 'except', groups.fullKeys()));
  }
  for (let i = 0; i < FILL_ROUNDS && !groups.enough(); i++) {
    if (!(await round(matchKeys(request.groupBy, 'any', groups.unfilledBestKeys())))) break;
  }
  return groups.distill().map((group) => ({
    id: group.id,
    hits: group.hits.map((hit) => toRecord(reader, hit, request)),
  }));
}

/**
 * Qdrant's `query_result_order` (`lib/shard/src/query/mod.rs`): how hits of different rounds compare, best
 * first; by order value for `order_by`, not at all for a sample or a query-less request (ties keep arrival).
 */
function rankOrder(reader: CollectionReader, request: QueryGroupsRequest): (a: QueryHit, b: QueryHit) => number {
  const query = request.query;
  if (query === undefined || query.kind === 'sample') return () => 0;
  if (query.kind === 'order_by') {
    const sign = query.orderBy.direction === 'desc' ? 1 : -1;
    return (a, b) => sign * ((b.orderValue ?? 0) - (a.orderValue ?? 0));
  }
  const higher = query.kind === 'rrf' || query.kind === 'dbsf' || reader.higherIsBetter(request.using ?? '');
  return higher ? (a, b) => b.score - a.score : (a, b) => a.score - b.score;
}

/** Qdrant's `except_on` / `match_on`: one condition per value type, integers and strings. */
function matchKeys(key: string, kind: 'any' | 'except', values: readonly (string | number)[]): Condition[] {
  const ints = values.filter((value) => typeof value === 'number');
  const strings = values.filter((value) => typeof value === 'string');
  return [ints, strings]
    .filter((list) => list.length > 0)
    .map((list) => ({ kind: 'field', key, match: { kind, values: list } }));
}

/**
 * The query as Qdrant's `shape_candidates_query` (`lib/shard/src/grouping/mod.rs`) sends it: every prefetch's
 * limit, nested ones included, times `group_size`, so that fusion ranks enough hits per group; and points
 * without the key (missing, null or `[]`) left out by the root filter, which reaches every prefetch.
 */
function shapeCandidatesQuery(request: QueryGroupsRequest): QueryGroupsRequest {
  const scale = (stage: PrefetchRequest): PrefetchRequest => ({
    ...stage,
    limit: stage.limit * request.groupSize,
    prefetch: stage.prefetch.map(scale),
  });
  const keyNotEmpty: Filter = {
    must: null,
    should: null,
    mustNot: [{ kind: 'is_empty', key: request.groupBy }],
    minShould: null,
  };
  const filter = combineFilters(request.filter, keyNotEmpty);
  return { ...request, prefetch: request.prefetch.map(scale), ...(filter === undefined ? {} : { filter }) };
}
