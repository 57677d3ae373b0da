import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BM25_AVERAGE_TERMS, BM25_K1, encodeDocumentTerms, encodeQueryTerms } from './sparse-vector.js';
import { hashToken } from './token-hash.js';

const weightOf = (vector: { indices: readonly number[]; values: readonly number[] }, term: string) =>
  vector.values[vector.indices.indexOf(hashToken(term))];

test('a part of average length weighs a term by BM25 saturation: tf (k1 + 1) / (tf + k1)', () => {
  const terms = Array.from({ length: BM25_AVERAGE_TERMS }, (_, i) => (i < 3 ? 'piano' : `w${i}`));
  const vector = encodeDocumentTerms(terms);
  assert.ok(Math.abs(weightOf(vector, 'piano')! - (3 * (BM25_K1 + 1)) / (3 + BM25_K1)) < 1e-9);
  assert.ok(Math.abs(weightOf(vector, 'w5')! - 1) < 1e-9);
});

test('the same term weighs more in a short part than in a long one, and repeats saturate', () => {
  const short = encodeDocumentTerms(['piano', 'lisbon']);
  const long = encodeDocumentTerms(['piano', ...Array.from({ length: 60 }, (_, i) => `w${i}`)]);
  assert.ok(weightOf(short, 'piano')! > weightOf(long, 'piano')!);
  const many = encodeDocumentTerms(Array.from({ length: 50 }, () => 'piano'));
  assert.ok(weightOf(many, 'piano')! < BM25_K1 + 1);
});

test('vectors list each index once, ascending; a query weighs each distinct term 1', () => {
  const vector = encodeDocumentTerms(['b', 'a', 'b', 'c']);
  assert.deepEqual(
    vector.indices,
    [...new Set(vector.indices)].sort((x, y) => x - y),
  );
  const query = encodeQueryTerms(['piano', 'piano', 'lisbon']);
  assert.equal(query.indices.length, 2);
  assert.deepEqual(query.values, [1, 1]);
  assert.deepEqual(encodeQueryTerms([]), { indices: [], values: [] });
});
