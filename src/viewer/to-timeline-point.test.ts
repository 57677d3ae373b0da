import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toTimelinePoint } from './to-timeline-point.js';

const withTimestamp = (timestamp: unknown) =>
  toTimelinePoint({ id: 1, payload: { text: 'x', timestamp } }).timestamp;

test('a timestamp the page cannot format (huge, fractional, negative) is shown as missing', () => {
  assert.equal(withTimestamp(1e20), 0);
  assert.equal(withTimestamp(1767312000000.5), 0);
  assert.equal(withTimestamp(-5), 0);
  assert.equal(withTimestamp('2026'), 0);
  assert.equal(withTimestamp(1767268800000), 1767268800000);
  assert.doesNotThrow(() => new Date(withTimestamp(8.64e15)).toISOString());
});
