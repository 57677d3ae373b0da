/**
 * @module The points matching `is_empty` / `is_null` on a payload-indexed key, kept as sets on every write, as
 * Qdrant's field indexes answer those conditions (lib/segment field_index `filter` for `IsEmpty`/`IsNull`), so
 * a filtered search reads its candidates instead of testing every point's payload.
 */
import type { FieldCondition, Filter } from '../filter/filter-ast.js';
import type { PointPredicate } from '../filter/filter-api.js';
import { compileFilter } from '../filter/index.js';
import type { PointEntry, PointTable } from './point-table.js';
import { RangeCandidates } from './range-candidates.js';

/**
 * Without a graph, an indexed filter's candidates are searched alone up to this share of the points; past it
 * the exact search's own plan (testing only the int8 pass's best) costs less than testing them all.
 */
const FEW_CANDIDATES_SHARE = 0.15;

/** A condition these sets can answer: its kind and its key. */
export type SetCondition = { readonly kind: 'is_empty' | 'is_null'; readonly key: string };

/** One condition's matching points, and the test that decides membership (the filter's own, so never apart). */
interface ConditionSet {
  readonly members: Set<PointEntry>;
  readonly test: PointPredicate;
}

const NO_TEXT_INDEXES = { textIndex: () => undefined };

const nameOf = (condition: SetCondition) => `${condition.kind}\u0000${condition.key}`;

/** A one-condition filter, compiled as any filter holding it would compile it. */
function compileCondition(condition: SetCondition): PointPredicate {
  const filter: Filter = { must: [condition], should: null, mustNot: null, minShould: null };
  return compileFilter(filter, NO_TEXT_INDEXES);
}

/**
 * Each set is built on its condition's first use (one pass over the points) and kept exact from then on;
 * a set whose key loses its index is dropped. Only conditions searches ask for cost memory.
 */
export class ConditionSets {
  readonly #sets = new Map<string, ConditionSet>();
  /** Range conditions on indexed numbers (range-candidates.ts), kept beside the sets. */
  readonly ranges = new RangeCandidates();

  /** Files a new or rewritten point (payload given) under every kept condition. */
  added(entry: PointEntry): void {
    for (const set of this.#sets.values()) if (set.test(entry)) set.members.add(entry);
    this.ranges.added(entry);
  }

  /** Forgets a deleted or replaced point. */
  removed(entry: PointEntry): void {
    for (const set of this.#sets.values()) set.members.delete(entry);
    this.ranges.removed();
  }

  /**
   * The points matching `condition` (a live set: read it before the next write), or undefined when its key
   * has no payload index in `indexed`. `points` lists every point, for building a set on first use.
   */
  matching(
    condition: SetCondition,
    indexed: ReadonlySet<string> | ReadonlyMap<string, unknown>,
    points: () => Iterable<PointEntry>,
  ): ReadonlySet<PointEntry> | undefined {
    this.#dropUnindexed(indexed);
    if (!indexed.has(condition.key)) return undefined;
    const name = nameOf(condition);
    let set = this.#sets.get(name);
    if (set === undefined) {
      const test = compileCondition(condition);
      const members = new Set<PointEntry>();
      for (const entry of points()) if (test(entry)) members.add(entry);
      set = { members, test };
      this.#sets.set(name, set);
    }
    return set.members;
  }

  #dropUnindexed(indexed: ReadonlySet<string> | ReadonlyMap<string, unknown>): void {
    for (const name of this.#sets.keys()) {
      if (!indexed.has(name.slice(name.indexOf('\u0000') + 1))) this.#sets.delete(name);
    }
  }
}

/**
 * The smallest set answering one of the filter's `must` conditions (those of a filter nested in `must` too: a
 * point passing the filter passes them all): every point passing the filter is in it (the caller still tests
 * the whole filter on each). Undefined when no such condition is indexed.
 */
export function plannedCandidates(
  filter: Filter | undefined,
  find: (condition: SetCondition) => ReadonlySet<PointEntry> | undefined,
  findRange: (condition: FieldCondition) => ReadonlySet<PointEntry> | undefined = () => undefined,
): ReadonlySet<PointEntry> | undefined {
  let best: ReadonlySet<PointEntry> | undefined;
  for (const condition of filter?.must ?? []) {
    const found =
      condition.kind === 'is_empty' || condition.kind === 'is_null'
        ? find(condition)
        : condition.kind === 'field'
          ? findRange(condition)
          : condition.kind === 'filter'
            ? plannedCandidates(condition.filter, find, findRange)
            : undefined;
    if (found !== undefined && (best === undefined || found.size < best.size)) best = found;
  }
  return best;
}

/**
 * The planner's candidates of `filter` in `table`: the indexed sets, and the indexed ranges holding at most
 * `atMost` points (those still in the table: a range's list may hold points deleted or rewritten since).
 */
function planCandidates(
  table: PointTable,
  indexed: ReadonlyMap<string, unknown>,
  filter: Filter | undefined,
  atMost: number,
): ReadonlySet<PointEntry> | undefined {
  const all = () => table.values();
  return plannedCandidates(
    filter,
    (condition) => table.conditions.matching(condition, indexed, all),
    (condition) => {
      const found = table.conditions.ranges.matching(condition, indexed, all, table.size, atMost);
      if (found === undefined) return undefined;
      const live = new Set<PointEntry>();
      for (const entry of found) if (table.getByKey(entry.key) === entry) live.add(entry);
      return live;
    },
  );
}

/**
 * The slots of dense vector `name` whose points pass `test`, when a payload index names the filter's
 * candidates and they are few: as Qdrant plans it, a filter whose cardinality is under the graph's threshold
 * is searched exactly over its matching points. Undefined when the search should go on as usual (no indexed
 * condition; so many candidates that the graph, or testing only the exact scan's best, costs less).
 */
export function fewCandidateSlots(
  table: PointTable,
  indexed: ReadonlyMap<string, unknown>,
  name: string,
  filter: Filter | undefined,
  test: (entry: PointEntry) => boolean,
): Int32Array | undefined {
  const slots = table.dense.get(name);
  if (slots === undefined) return undefined;
  const graph = table.graphs.get(name);
  const few = graph?.active === true ? graph.options.threshold : slots.count * FEW_CANDIDATES_SHARE;
  const candidates = planCandidates(table, indexed, filter, few);
  if (candidates === undefined) return undefined;
  if (candidates.size >= few) return undefined;
  const allowed = new Int32Array(candidates.size);
  let count = 0;
  for (const entry of candidates) {
    const owner = entry.dense.get(name);
    if (owner !== undefined && owner.slot >= 0 && test(entry)) allowed[count++] = owner.slot;
  }
  return allowed.subarray(0, count);
}

/**
 * The points of `table` that can pass `filter`: an indexed condition's set when it has one (counting then reads
 * those few, as Qdrant's count reads its field index), else every point. The caller tests the whole filter.
 */
export function filterCandidates(
  table: PointTable,
  indexed: ReadonlyMap<string, unknown>,
  filter: Filter | undefined,
): Iterable<PointEntry> {
  // Past half the points, reading a range's candidates saves little over testing every point.
  return planCandidates(table, indexed, filter, table.size / 2) ?? table.values();
}
