import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toTimelinePoint } from './to-timeline-point.js';

const shown = (timestamp: unknown) => {
  const point = toTimelinePoint({ id: 1, payload: { text: 'x', timestamp } });
  return point.undated ? 'undated' : point.timestamp;
};

test('a timestamp the page cannot format (huge, negative, not a number, missing) is shown as undated', () => {
  assert.equal(shown(1e20), 'undated');
  assert.equal(shown(-5), 'undated');
  assert.equal(shown('2026'), 'undated');
  assert.equal(shown(undefined), 'undated');
  assert.equal(shown([1, 2]), 'undated');
  assert.equal(shown(1767268800000), 1767268800000);
  assert.equal(shown(1767312000000.5), 1767312000000, 'a fractional ms is dated, to the ms');
  assert.doesNotThrow(() => new Date(Number(shown(8.64e15))).toISOString());
});
