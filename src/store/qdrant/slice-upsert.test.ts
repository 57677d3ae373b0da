/** @module Tests for cutting upserts into bounded requests and passing vectors without copies. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { asWireArray, sliceUpsert, UPSERT_SLICE_COMPONENTS } from './slice-upsert.js';

describe('sliceUpsert', () => {
  test('keeps every point, in order, in slices within the budget', () => {
    const points = Array.from({ length: 50 }, (_, i) => ({ id: i, size: 3072 }));
    const slices = sliceUpsert(points, (p) => p.size);
    assert.deepEqual(
      slices.flat().map((p) => p.id),
      points.map((p) => p.id),
    );
    assert.deepEqual(
      slices.map((slice) => slice.length),
      [21, 21, 8],
    );
    for (const slice of slices) assert.ok(slice.length * 3072 <= UPSERT_SLICE_COMPONENTS);
  });

  test('small vectors share one request; a point past the budget goes alone', () => {
    const small = Array.from({ length: 160 }, (_, i) => ({ id: i, size: 384 }));
    assert.equal(sliceUpsert(small, (p) => p.size).length, 1);
    const mixed = [
      { id: 'a', size: 10 },
      { id: 'huge', size: 50 },
      { id: 'b', size: 10 },
    ];
    assert.deepEqual(
      sliceUpsert(mixed, (p) => p.size, 40).map((slice) => slice.map((p) => p.id)),
      [['a'], ['huge'], ['b']],
    );
    assert.deepEqual(
      sliceUpsert([], () => 1),
      [],
    );
  });
});

describe('asWireArray', () => {
  test('passes an array through uncopied and turns a typed array into numbers', () => {
    const vector = [0.25, -0.5];
    assert.equal(asWireArray(vector), vector);
    const typed = new Float32Array([0.25, -0.5]) as unknown as number[];
    assert.deepEqual(asWireArray(typed), [0.25, -0.5]);
    assert.equal(JSON.stringify(asWireArray(typed)), '[0.25,-0.5]');
  });
});
