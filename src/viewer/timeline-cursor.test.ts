import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeCursor, encodeCursor } from './timeline-cursor.js';

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

test('a cursor whose seen ids Qdrant would reject is a 400 naming cursor', () => {
  for (const seen of [['not-a-uuid'], [-5], [1e300], [1.5]]) {
    assert.throws(
      () => decodeCursor(b64([1, seen])),
      (e: { field?: string }) => e.field === 'cursor',
    );
  }
});

test('a cursor the service gave out reads back', () => {
  const cursor = { timestamp: 5, seen: [3, '0123456789abcdef0123456789abcdef'] };
  assert.deepEqual(decodeCursor(encodeCursor(cursor)), cursor);
});
