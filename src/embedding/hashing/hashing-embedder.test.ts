/** @module Tests for the hashing embedder: determinism, unit length, lexical overlap and bad settings. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ConfigError } from '../../errors/memory-pool-error.js';
import { HashingEmbedder } from './hashing-embedder.js';

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return dot;
}

function norm(vector: Float32Array): number {
  return Math.sqrt(cosine(vector, vector));
}

describe('HashingEmbedder', () => {
  const embedder = new HashingEmbedder({ dimensions: 256 });

  test('gives the same vector for the same text, across instances and batches', async () => {
    const [alone] = await embedder.embed(['The cat sat on the mat']);
    const [, inBatch] = await new HashingEmbedder({ dimensions: 256 }).embed([
      'other',
      'The cat sat on the mat',
    ]);
    assert.deepEqual(inBatch, alone);
  });

  test('pins the hash so vectors stay stable across releases and processes', () => {
    // Golden values: if these change, every stored hashing collection silently stops matching its queries.
    const words = new HashingEmbedder({ dimensions: 8, trigrams: false });
    assert.deepEqual([...words.embedOne('hello')], [0, 0, 0, 0, -1, 0, 0, 0]);
    assert.deepEqual(
      [...words.embedOne('HELLO, world!')],
      [Math.fround(Math.SQRT1_2), 0, 0, 0, -Math.fround(Math.SQRT1_2), 0, 0, 0],
    );
  });

  test('returns unit vectors of the configured length, even for empty text', async () => {
    const vectors = await embedder.embed([
      'Hello world',
      '',
      '!!!',
      'a much longer sentence with many words',
    ]);
    for (const vector of vectors) {
      assert.equal(vector.length, 256);
      assert.ok(Math.abs(norm(vector) - 1) < 1e-5, `norm was ${norm(vector)}`);
    }
  });

  test('scores shared words above unrelated text, ignoring case and punctuation', () => {
    const query = embedder.embedOne('Where does Alice keep her red bicycle?');
    const overlapping = embedder.embedOne('alice keeps the RED bicycle in the garage.');
    const unrelated = embedder.embedOne('Quarterly tax filings are due next month');
    assert.ok(cosine(query, overlapping) > cosine(query, unrelated) + 0.2);
  });

  test('does not see paraphrases as similar (lexical only)', () => {
    const a = embedder.embedOne('I adore cats');
    const b = embedder.embedOne('She loves kittens');
    assert.ok(Math.abs(cosine(a, b)) < 0.3);
  });

  test('rejects a non-positive dimension count with a ConfigError naming the key', () => {
    assert.throws(
      () => new HashingEmbedder({ dimensions: 0 }),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.match(error.message, /embedding\.dimensions/);
        return true;
      },
    );
  });
});
