import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { encodeStBm25, hashStToken, tokenizeStBm25 } from './st-bm25-encoding.js';

describe("starrysky180111's BM25 encoding", () => {
  test('hashes tokens with FNV-1a 32-bit over UTF-16 code units, unsigned', () => {
    // Published FNV-1a test vectors for ASCII; for CJK the code unit (not its UTF-8 bytes) is what is mixed in.
    assert.equal(hashStToken(''), 0x811c9dc5);
    assert.equal(hashStToken('a'), 0xe40c292c);
    assert.equal(hashStToken('foobar'), 0xbf9cf968);
    assert.equal(hashStToken('猫'), Math.imul(0x811c9dc5 ^ 0x732b, 0x01000193) >>> 0);
  });

  test('ASCII words of two or more characters come first, then each CJK run by character and pair', () => {
    assert.deepEqual(tokenizeStBm25('I like 初音ミク, OK? x_1 a'), [
      'like',
      'ok',
      'x_1',
      '初',
      '初音',
      '音',
      '音ミ',
      'ミ',
      'ミク',
      'ク',
    ]);
    assert.deepEqual(tokenizeStBm25('猫と犬', false), ['猫', 'と', '犬']);
    assert.deepEqual(tokenizeStBm25('김치 豈 Привет'), ['김', '김치', '치', '豈']); // Cyrillic yields nothing
    assert.deepEqual(tokenizeStBm25('café-au-lait'), ['caf', 'au', 'lait']);
  });

  test('values saturate term frequency with k1 = 1.2 and no length normalization', () => {
    const vector = encodeStBm25('Mochi mochi MOCHI cat');
    assert.deepEqual(vector.indices, [hashStToken('mochi'), hashStToken('cat')]);
    assert.deepEqual(vector.values, [(3 * 2.2) / (3 + 1.2), 1]);
    assert.deepEqual(encodeStBm25('a ! ?'), { indices: [], values: [] });
    assert.deepEqual(encodeStBm25('cat cat', { k1: 2 }).values, [(2 * 3) / 4]);
  });
});
