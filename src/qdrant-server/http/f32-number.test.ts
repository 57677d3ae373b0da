/** @module Tests for the shortest f32 round-trip serialization. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { toShortestF32, toShortestF32Vector } from './f32-number.js';

describe('toShortestF32', () => {
  test('an f32-rounded 0.31 prints as 0.31', () => {
    const stored = Math.fround(0.31);
    assert.notEqual(JSON.stringify(stored), '0.31');
    assert.equal(JSON.stringify(toShortestF32(stored)), '0.31');
  });

  test('a normalized Cosine component keeps the digits Qdrant prints', () => {
    assert.equal(JSON.stringify(toShortestF32(Math.fround(0.16169041))), '0.16169041');
    assert.equal(JSON.stringify(toShortestF32(Math.fround(0.5659165))), '0.5659165');
  });

  test('the result always reads back as the same f32', () => {
    for (const x of [1e-7, 123456.789, -0.3333333, 3.4028234e38, 1.17549435e-38, 0.1 + 0.2]) {
      const f32 = Math.fround(x);
      assert.equal(Math.fround(toShortestF32(f32)), f32, `for ${x}`);
    }
  });

  test('integers, zero and non-finite values pass through', () => {
    assert.equal(toShortestF32(1), 1);
    assert.equal(toShortestF32(0), 0);
    assert.ok(Number.isNaN(toShortestF32(Number.NaN)));
    assert.deepEqual(toShortestF32Vector([Math.fround(0.05), Math.fround(0.61)]), [0.05, 0.61]);
  });
});
