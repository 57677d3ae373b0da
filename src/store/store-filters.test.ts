import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  allOf,
  anyOf,
  joinFilters,
  matchValue,
  noneOf,
  unsourcedPoints,
  withoutSource,
} from './store-filters.js';

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
