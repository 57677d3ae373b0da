/** @module Tests for the slice hash: SipHash-2-4 against the reference vectors of its authors' paper. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isInSlice, sipHash24 } from './slice-hash.js';

// Key 00 01 … 0f, messages 00, 00 01, …: the first vectors of the SipHash paper (Aumasson and Bernstein, 2012).
const K0 = 0x0706050403020100n;
const K1 = 0x0f0e0d0c0b0a0908n;
const message = (length: number) => Uint8Array.from({ length }, (_, i) => i);

test('SipHash-2-4 matches the reference vectors', () => {
  assert.equal(sipHash24(message(0), K0, K1), 0x726fdb47dd0e0e31n);
  assert.equal(sipHash24(message(1), K0, K1), 0x74f839c593dc67fdn);
  assert.equal(sipHash24(message(8), K0, K1), 0x93f5f5799a932462n);
  assert.equal(sipHash24(message(15), K0, K1), 0xa129ca6149be45e5n);
});

test('slices of one total are disjoint and cover every id, numeric and UUID', () => {
  const ids = [
    ...Array.from({ length: 50 }, (_, i) => i),
    ...Array.from({ length: 50 }, (_, i) => `00000000-0000-0000-0000-${i.toString(16).padStart(12, '0')}`),
  ];
  for (const id of ids) {
    const slices = [0, 1, 2, 3].filter((index) => isInSlice(id, 4, index));
    assert.equal(slices.length, 1, `id ${id}`);
    // Slice 0 of 4 lies inside slice 0 of 2 (same hash, no salt).
    if (slices[0] === 0) assert.ok(isInSlice(id, 2, 0));
  }
});
