import assert from 'node:assert/strict';
import { test } from 'node:test';
import { measureJsonDepth } from './measure-json-depth.js';

test('counts nesting of arrays and objects, not brackets inside strings or escaped quotes', () => {
  assert.equal(measureJsonDepth('1'), 0);
  assert.equal(measureJsonDepth('[]'), 1);
  assert.equal(measureJsonDepth('{"a":[1,{"b":{}}]}'), 4);
  assert.equal(measureJsonDepth('{"a":"[[[{{{"}'), 1);
  assert.equal(measureJsonDepth('["\\"[[[", [2]]'), 2);
  assert.equal(measureJsonDepth('[[],[],[[]]]'), 3);
});

test('measures 100,000-deep text without recursion, stopping once past the limit', () => {
  const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
  assert.equal(measureJsonDepth(deep), 100_000);
  assert.equal(measureJsonDepth(deep, 64), 65);
});
