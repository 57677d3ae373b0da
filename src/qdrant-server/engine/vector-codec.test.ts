import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { PointVectors } from './point-table.js';
import { decodeNamedVectors, encodeNamedVectors, fromLittleEndian, toLittleEndian } from './vector-codec.js';

/** The layout's bytes written field by field, little-endian whatever the platform: what a stored row holds. */
function referenceBytes(floats: readonly number[], words: readonly number[]): Buffer {
  const bytes = Buffer.alloc(4 * (floats.length + words.length));
  for (const [i, x] of floats.entries()) bytes.writeFloatLE(x, 4 * i);
  for (const [i, x] of words.entries()) bytes.writeUInt32LE(x, 4 * (floats.length + i));
  return bytes;
}

const floats = [0.1, -2.5, 3e-8, 1e30, -0, 0.7071067690849304];
const words = [0, 1, 65_535, 0xffff_ffff, 123_456_789];

describe('the vectors BLOB', () => {
  for (const platformLE of [true, false]) {
    const order = platformLE ? 'little-endian' : 'big-endian';
    test(`a ${order} platform writes and reads the little-endian bytes a stored row holds`, () => {
      const written = Buffer.concat([
        toLittleEndian(new Float32Array(floats), platformLE),
        toLittleEndian(new Uint32Array(words), platformLE),
      ]);
      assert.deepEqual(written, referenceBytes(floats, words));
      // Read back from an odd offset, as SQLite may hand a BLOB: the arrays come back exact and aligned.
      const blob = Buffer.concat([Buffer.from([9]), written]).subarray(1);
      const readFloats = fromLittleEndian(new Float32Array(floats.length), blob, 0, platformLE);
      const readWords = fromLittleEndian(new Uint32Array(words.length), blob, 4 * floats.length, platformLE);
      assert.deepEqual([...readFloats], [...new Float32Array(floats)]);
      assert.deepEqual([...readWords], words);
    });
  }

  test('a view into a larger buffer writes only its own components', () => {
    const packed = new Float32Array([1, 2, 3, 4, 5]);
    assert.deepEqual(toLittleEndian(packed.subarray(1, 3)), referenceBytes([2, 3], []));
  });

  test('named dense and sparse vectors survive a round trip; the unnamed one is not in the BLOB', () => {
    const vectors: PointVectors = {
      dense: new Map([
        ['', new Float32Array([9, 9])],
        ['dense', new Float32Array([0.25, -0.5, 0.75])],
      ]),
      sparse: new Map([
        ['bm25', { indices: new Uint32Array([3, 70_000]), values: new Float32Array([1.5, 0.5]) }],
      ]),
    };
    const decoded = decodeNamedVectors(encodeNamedVectors(vectors)!);
    assert.deepEqual([...decoded.dense.keys()], ['dense']);
    assert.deepEqual([...decoded.dense.get('dense')!], [0.25, -0.5, 0.75]);
    assert.deepEqual([...decoded.sparse.get('bm25')!.indices], [3, 70_000]);
    assert.deepEqual([...decoded.sparse.get('bm25')!.values], [1.5, 0.5]);
    assert.equal(
      encodeNamedVectors({ dense: new Map([['', new Float32Array([1])]]), sparse: new Map() }),
      null,
    );
  });

  test('a BLOB cut short is reported as a damaged row, never read with zeros for its missing end', () => {
    const whole = encodeNamedVectors({
      dense: new Map([['dense', new Float32Array([1, 2, 3, 4])]]),
      sparse: new Map([
        ['bm25', { indices: new Uint32Array([5, 6]), values: new Float32Array([0.5, 0.25]) }],
      ]),
    })!;
    for (const cut of [1, 10, 30]) {
      assert.throws(() => decodeNamedVectors(whole.subarray(0, whole.length - cut)), /damaged/);
    }
    for (const platformLE of [true, false]) {
      assert.throws(
        () => fromLittleEndian(new Float32Array(4), whole.subarray(0, 20), 8, platformLE),
        /damaged/,
      );
    }
  });
});
