/**
 * @module `POST /points/query/groups`: a query's hits grouped by a payload key (qdrant-hybrid.md §3.5), with the
 * rules of Qdrant's aggregator (`lib/shard/src/grouping/aggregator.rs`): a point joins one group per distinct
 * string or integer value at the key (one level into arrays); a point with any other value type, or without the
 * key, joins none; the `limit` groups with the best best-hit are returned, each with its `group_size` best hits.
 */
import type { Filter } from '../filter/index.js';
import type { PointGroupRecord, PrefetchRequest, QueryGroupsRequest } from './engine-api.js';
import { indexedValues } from './collection-info.js';
import type { CollectionReader } from './collection-reader.js';
import { combineFilters, type QueryHit, runRootStage, toRecord } from './point-query.js';

/** The group keys of one point, or undefined when it joins no group. */
function groupKeys(payload: Record<string, unknown>, path: string): (string | number)[] | undefined {
  const values = indexedValues(payload, path);
  if (values.length === 0) return undefined;
  const keys: (string | number)[] = [];
  for (const value of values) {
    const isKey = typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value));
    if (!isKey) return undefined;
    if (!keys.includes(value)) keys.push(value);
  }
  return keys;
}

/** Runs a grouped query. */
export async function runQueryGroups(
  reader: CollectionReader,
  request: QueryGroupsRequest,
): Promise<PointGroupRecord[]> {
  const shaped = shapeCandidatesQuery(request);
  // Qdrant's first request asks for `limit × group_size` hits (`grouping/driver.rs`). Score more hits until
  // the best `limit` groups are full or every candidate was seen: an unseen hit ranks below every seen one,
  // so it could neither enter a full group nor found a better group.
  let budget = Math.max(1, request.limit * request.groupSize);
  for (;;) {
    const hits = await runRootStage(reader, shaped, budget);
    const groups = groupHits(hits, request);
    const full = groups.slice(0, request.limit).filter((group) => group.hits.length >= request.groupSize);
    const complete = full.length === request.limit || hits.length < budget || budget >= reader.table.size;
    if (complete) {
      return groups.slice(0, request.limit).map((group) => ({
        id: group.id,
        hits: group.hits.map((hit) => toRecord(reader, hit, request)),
      }));
    }
    budget *= 4;
  }
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

/** Groups in order of their best hit (hits arrive best first), each keeping its first `groupSize` hits. */
function groupHits(
  hits: readonly QueryHit[],
  request: QueryGroupsRequest,
): { id: string | number; hits: QueryHit[] }[] {
  const groups = new Map<string, { id: string | number; hits: QueryHit[] }>();
  for (const hit of hits) {
    const keys = groupKeys(hit.item.payload, request.groupBy);
    if (keys === undefined) continue;
    for (const id of keys) {
      const mapKey = `${typeof id}:${id}`;
      let group = groups.get(mapKey);
      if (group === undefined) {
        group = { id, hits: [] };
        groups.set(mapKey, group);
      }
      if (group.hits.length < request.groupSize) group.hits.push(hit);
    }
  }
  return [...groups.values()];
}
