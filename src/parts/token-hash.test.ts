import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hashToken } from './token-hash.js';

test('terms map to FNV-1a 32-bit of their UTF-8 bytes (published test vectors)', () => {
  assert.equal(hashToken(''), 0x811c9dc5);
  assert.equal(hashToken('a'), 0xe40c292c);
  assert.equal(hashToken('foobar'), 0xbf9cf968);
});

test('indices are unsigned 32-bit integers, the same on every call', () => {
  for (const term of ['piano', 'lisbon', 'живёт', '2023']) {
    const index = hashToken(term);
    assert.ok(Number.isInteger(index) && index >= 0 && index < 2 ** 32);
    assert.equal(hashToken(term), index);
  }
});
