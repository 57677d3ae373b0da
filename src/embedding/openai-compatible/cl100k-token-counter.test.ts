/** @module Tests for counting cl100k tokens: exact on prose, safe on special-token text and long unbroken runs. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { countCl100kTokens, createCl100kWindowCounter } from './cl100k-token-counter.js';

test('text holding a special-token string is counted as plain text, not refused', () => {
  assert.ok(countCl100kTokens('hello <|endoftext|> world') > 3);
});

test('a 16,000-character unbroken run is counted at once, and never undercounted', () => {
  const run = 'QUJD'.repeat(4_000); // base64-like: one pre-token for the BPE
  // Whole, BPE on this took minutes of CPU (quadratic in the run); it is counted in slices now.
  const tokens = countCl100kTokens(run);
  // Counted in slices: a cut can only stop merges, so the count stays an upper bound of the real one.
  assert.ok(tokens >= countCl100kTokens('QUJD'.repeat(64)) * (4_000 / 64));
  assert.ok(tokens <= run.length);
});

test('ordinary prose is counted exactly', () => {
  assert.equal(countCl100kTokens('hello world'), 2);
  assert.equal(countCl100kTokens('The quick brown fox jumps over the lazy dog.'), 10);
});

test('within the window a text is not tokenized: its UTF-8 length, never below its tokens, stands for it', () => {
  const count = createCl100kWindowCounter(8_191);
  const message = 'Helen: the lighthouse keeper waved at us — ça va?';
  assert.equal(count(message), Buffer.byteLength(message, 'utf8'));
  assert.ok(count(message) >= countCl100kTokens(message));
  // Past the window in bytes, the count is exact again, so windowing cuts where the model would.
  const long = 'The quick brown fox jumps over the lazy dog. '.repeat(200);
  assert.equal(count(long), countCl100kTokens(long));
  assert.ok(count(long) < 8_191);
});
