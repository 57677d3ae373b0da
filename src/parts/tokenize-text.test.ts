import assert from 'node:assert/strict';
import { test } from 'node:test';
import { tokenizeText } from './tokenize-text.js';

test('a question and what was said meet on stems, whatever the inflection and case', () => {
  assert.deepEqual(tokenizeText('Caroline was ADOPTING a dog'), tokenizeText('caroline adopted dogs'));
  assert.deepEqual(tokenizeText('running'), ['run']);
});

test('stop words, punctuation and stray letters leave no terms', () => {
  assert.deepEqual(tokenizeText('What is it, and where are they?'), []);
  assert.deepEqual(tokenizeText("Anna's piano — don't!"), ['anna', 'piano']);
});

test('digits stay (dates and numbers are what questions ask about); other scripts pass through lowercased', () => {
  assert.deepEqual(tokenizeText('May 7, 2023'), ['mai', '7', '2023']);
  assert.deepEqual(tokenizeText('Алиса живёт'), ['алиса', 'живёт']);
});

test('repeats are kept, in order, so term frequency can count them', () => {
  assert.deepEqual(tokenizeText('paint, painting, painted'), ['paint', 'paint', 'paint']);
});

test('a word stems the same every time, also after more distinct words than the stem cache holds', () => {
  const first = tokenizeText('adopting paintings quickly');
  // 60,000 distinct made-up words pass the cache's bound (50,000), which then starts again.
  const many = Array.from({ length: 60_000 }, (_, i) => `w${i.toString(36)}ing`).join(' ');
  const terms = tokenizeText(many);
  assert.equal(terms.length, 60_000);
  assert.equal(terms[59_999], `w${(59_999).toString(36)}`);
  assert.deepEqual(tokenizeText('adopting paintings quickly'), first);
  assert.deepEqual(first, ['adopt', 'paint', 'quickli']);
});
