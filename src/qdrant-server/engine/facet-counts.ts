/**
 * @module `POST /collections/{name}/facet`: how many points hold each value of a key (Qdrant's facet over a map
 * index, `lib/segment/src/data_types/facets.rs`). The key needs a keyword, integer, uuid or bool index; a point
 * counts once per distinct value; hits are by count descending, then value ascending; the top `limit` are kept.
 */
import { badInput } from '../qdrant-error.js';
import { indexedValues, isIndexable } from './collection-info.js';
import type { FacetHit, FacetRequest } from './engine-api.js';
import type { CollectionReader } from './collection-reader.js';
import { parseUuid } from './point-id.js';

const FACET_TYPES = new Set(['keyword', 'integer', 'uuid', 'bool']);

/** The facet value as Qdrant reports it (UUIDs canonical: lowercase, hyphenated). */
function facetValue(type: string, value: unknown): string | number | boolean {
  return type === 'uuid' ? (parseUuid(value as string) as string) : (value as string | number | boolean);
}

/** Ascending value order of one type: strings by code unit (UUID strings then order as their 128 bits). */
function compareValues(a: string | number | boolean, b: string | number | boolean): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}

/** Counts each value at `request.key` over the points passing the filter. */
export function countFacets(reader: CollectionReader, request: FacetRequest): FacetHit[] {
  const type = reader.indexes.get(request.key)?.type;
  if (type === undefined || !FACET_TYPES.has(type)) {
    throw badInput(
      `No appropriate index for faceting: \`${request.key}\`. Please create one to facet on this field. Check https://qdrant.tech/documentation/concepts/indexing/#payload-index to see which payload schemas support Match conditions`,
    );
  }
  const test = reader.predicate(request.filter);
  const counts = new Map<string | number | boolean, number>();
  for (const entry of reader.table.values()) {
    if (test !== undefined && !test(entry)) continue;
    const distinct = new Set<string | number | boolean>();
    for (const value of indexedValues(entry.payload, request.key)) {
      if (isIndexable(type, value)) distinct.add(facetValue(type, value));
    }
    for (const value of distinct) counts.set(value, (counts.get(value) ?? 0) + 1);
  }
  return [...counts]
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => b.count - a.count || compareValues(a.value, b.value))
    .slice(0, request.limit);
}
