import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readHeldMessageIds, splitMessageIds } from './held-message-ids.js';

test('ids split exactly at commas and trimmed, so X_1_1 is never taken for X_1_10', () => {
  assert.deepEqual(splitMessageIds('X_1_10, X_1_1 ,,X_2'), ['X_1_10', 'X_1_1', 'X_2']);
  assert.deepEqual(readHeldMessageIds('X_1_10, X_1_1 ,,X_2'), ['X_1_10', 'X_1_1', 'X_2']);
});

test('splitMessageIds keeps repeats (a count as written), readHeldMessageIds the distinct ids', () => {
  assert.deepEqual(splitMessageIds('a,b,a'), ['a', 'b', 'a']);
  assert.deepEqual(readHeldMessageIds('a,b,a'), ['a', 'b']);
});

test('a payload without a string messageIds holds none', () => {
  for (const value of [undefined, null, 42, ['a']]) {
    assert.deepEqual(splitMessageIds(value), []);
    assert.deepEqual(readHeldMessageIds(value), []);
  }
});
