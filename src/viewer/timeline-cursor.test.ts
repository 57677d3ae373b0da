import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeCursor, encodeCursor, type TimelinePosition } from './timeline-cursor.js';

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

test('a cursor whose id Qdrant would reject, or of an unknown shape, is a 400 naming cursor', () => {
  for (const fields of [
    ['t', 1, 'not-a-uuid'],
    ['t', 1, -5],
    ['u', 1e300],
    ['s', 1.5],
    ['o', 'yesterday'],
    ['t', 1],
    ['x', null],
    [1, [3]],
  ]) {
    assert.throws(
      () => decodeCursor(b64(fields)),
      (e: { field?: string }) => e.field === 'cursor',
      JSON.stringify(fields),
    );
  }
});

test('every cursor the service gives out reads back, and stays small', () => {
  const positions: TimelinePosition[] = [
    { phase: 'tie', timestamp: 5, offset: '0123456789abcdef0123456789abcdef' },
    { phase: 'tie', timestamp: 1767312000000.5 },
    { phase: 'older', timestamp: 1767312000000 },
    { phase: 'older' },
    { phase: 'undated', offset: 42 },
    { phase: 'undated' },
    { phase: 'storage', offset: 7 },
  ];
  for (const position of positions) {
    const cursor = encodeCursor(position);
    assert.deepEqual(decodeCursor(cursor), position);
    assert.ok(cursor.length < 100, cursor);
  }
});
