/**
 * @module The groups a grouped query's rounds collect, as Qdrant's `GroupsAggregator`
 * (`lib/shard/src/grouping/aggregator.rs`): a point joins one group per distinct string or integer value at the
 * key (one level into arrays); a point with any other value type, or without the key, joins none; groups rank by
 * their best hit, and each returns its `group_size` best hits.
 */
import type { QueryGroupsRequest } from './engine-api.js';
import { indexedValues } from './collection-info.js';
import type { PointId } from './point-id.js';
import type { QueryHit } from './point-query.js';

interface Group {
  readonly id: string | number;
  /** Every hit collected for it, by point key: a round can bring more than `group_size`. */
  readonly hits: Map<string, QueryHit>;
  best: QueryHit;
}

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

export class GroupsAggregator {
  readonly #request: QueryGroupsRequest;
  /** Negative when the first hit is better; hits of different rounds compare by it. */
  readonly #compare: (a: QueryHit, b: QueryHit) => number;
  /** In order of discovery, so that groups with equal best scores keep it. */
  readonly #groups = new Map<string, Group>();
  readonly #ids = new Map<string, PointId>();

  constructor(request: QueryGroupsRequest, compare: (a: QueryHit, b: QueryHit) => number) {
    this.#request = request;
    this.#compare = compare;
  }

  add(hits: readonly QueryHit[]): void {
    for (const hit of hits) {
      const keys = groupKeys(hit.item.payload, this.#request.groupBy);
      if (keys === undefined) continue;
      for (const id of keys) {
        const mapKey = `${typeof id}:${id}`;
        const group = this.#groups.get(mapKey);
        if (group === undefined) {
          this.#groups.set(mapKey, { id, hits: new Map([[hit.item.key, hit]]), best: hit });
        } else {
          if (!group.hits.has(hit.item.key)) group.hits.set(hit.item.key, hit);
          if (this.#compare(hit, group.best) < 0) group.best = hit;
        }
        this.#ids.set(hit.item.key, hit.item.id);
      }
    }
  }

  /** The ids of every point collected so far. */
  ids(): PointId[] {
    return [...this.#ids.values()];
  }

  #isFull(group: Group): boolean {
    return group.hits.size >= this.#request.groupSize;
  }

  #best(): Group[] {
    return [...this.#groups.values()]
      .sort((a, b) => this.#compare(a.best, b.best))
      .slice(0, this.#request.limit);
  }

  /** Whether the best `limit` groups are all full. */
  enough(): boolean {
    return this.#best().filter((group) => this.#isFull(group)).length >= this.#request.limit;
  }

  fullKeys(): (string | number)[] {
    return [...this.#groups.values()].filter((group) => this.#isFull(group)).map((group) => group.id);
  }

  unfilledBestKeys(): (string | number)[] {
    return this.#best()
      .filter((group) => !this.#isFull(group))
      .map((group) => group.id);
  }

  /** The best groups, best first, each with its best `group_size` hits. */
  distill(): { id: string | number; hits: QueryHit[] }[] {
    return this.#best().map((group) => ({
      id: group.id,
      hits: [...group.hits.values()].sort(this.#compare).slice(0, this.#request.groupSize),
    }));
  }
}
