/** @module The filter builders: SillyTavern's points told apart in one place, and filters combined without loss. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  allOf,
  anyOf,
  hasId,
  joinFilters,
  matchAny,
  matchValue,
  noneOf,
  sourcedPoints,
  unsourcedPoints,
  withoutSource,
} from './store-filters.js';
import { type FilterablePoint, matchFilter } from './test-support/match-filter.js';

const points: FilterablePoint[] = [
  { id: 1, payload: { chunkId: 'a', source: 'discord' } },
  { id: 2, payload: { chunkId: 'a', source: 'api' } },
  { id: 3, payload: { chunkId: 'b' } },
  { id: 4, payload: { chunkId: 'a' } },
];
const ids = (filter: Parameters<typeof matchFilter>[0]) =>
  points.filter((point) => matchFilter(filter, point)).map((point) => point.id);

test("SillyTavern's points are the ones without a source; memory-pool's the rest", () => {
  assert.deepEqual(ids(unsourcedPoints()), [3, 4]);
  assert.deepEqual(ids(sourcedPoints()), [1, 2]);
});

test('allOf keeps every clause of the filters it joins (an object spread would drop a must_not)', () => {
  const stale = allOf(matchAny('chunkId', ['a']));
  assert.deepEqual(ids(allOf(stale, noneOf(hasId([2])))), [1, 4]);
  const joined = allOf(sourcedPoints(), noneOf(hasId([2])));
  assert.deepEqual(ids(joined), [1]);
  assert.deepEqual(ids({ ...sourcedPoints(), ...noneOf(hasId([2])) }), [1, 3, 4], 'what the spread did');
});

test('joinFilters joins must and must_not lists, keeps a should as its own condition, and is undefined for nothing', () => {
  const a = matchValue('source', 'discord');
  const b = matchValue('isDm', true);
  assert.equal(joinFilters(undefined, undefined), undefined);
  assert.deepEqual(joinFilters(allOf(a), noneOf(b), unsourcedPoints()), {
    must: [a, withoutSource()],
    must_not: [b],
  });
  assert.deepEqual(joinFilters(anyOf(a, b), allOf(a)), { must: [{ should: [a, b] }, a] });
});
