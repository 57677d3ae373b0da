import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findTooDeep } from './find-too-deep.js';

test('counts nesting of arrays and objects, not brackets inside strings or escaped quotes', () => {
  assert.equal(findTooDeep('1', 0), -1);
  assert.equal(findTooDeep('[]', 0), 0);
  assert.equal(findTooDeep('{"a":[1,{"b":{}}]}', 4), -1);
  assert.equal(findTooDeep('{"a":[1,{"b":{}}]}', 3), 13);
  assert.equal(findTooDeep('{"a":"[[[{{{"}', 1), -1);
  assert.equal(findTooDeep('["\\"[[[", [2]]', 2), -1);
  assert.equal(findTooDeep('[[],[],[[]]]', 2), 8);
});

test('scans 100,000-deep text without recursion and stops at the first container past the limit', () => {
  const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
  assert.equal(findTooDeep(deep, 100_000), -1);
  assert.equal(findTooDeep(deep, 64), 64);
});
