import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findUnsaidWords, removeWords } from './find-unsaid-words.js';

test('a word is unsaid when neither the hits nor the store hold any of its terms; stop words and numbers never are', async () => {
  const asked: string[][] = [];
  const storeHolds = new Set(['lisbon']);
  const unsaid = await findUnsaidWords(
    "Did Helen's submarine trip to Lisbon in 2023 go smoothly?",
    ['Helen: we went on a trip last June'],
    async (terms) => {
      asked.push([...terms]);
      return new Set(terms.filter((term) => storeHolds.has(term)));
    },
  );
  assert.deepEqual(unsaid, ['submarine', 'go', 'smoothly']);
  // Only what the hits do not hold is asked of the store, each term once.
  assert.deepEqual(asked, [['submarin', 'lisbon', 'go', 'smoothli']]);
});

test('question grammar the stop list lacks, and month and weekday names, are never unsaid', async () => {
  const unsaid = await findUnsaidWords(
    'Whose kayak does Helen rent when it rains, on Sunday or in August?',
    [],
    async () => new Set(['helen', 'rain']),
  );
  assert.deepEqual(unsaid, ['kayak', 'rent']);
});

test('nothing is asked of the store when the hits hold every word', async () => {
  const unsaid = await findUnsaidWords(
    'the greyhound Pixel',
    ['Helen: Pixel the greyhound sleeps'],
    async () => {
      throw new Error('not asked');
    },
  );
  assert.deepEqual(unsaid, []);
});

test('removeWords takes out whole words only', () => {
  assert.equal(
    removeWords('Where did Helen rent a kayak, and the kayaks?', ['kayak', 'rent']),
    'Where did Helen a , and the kayaks?',
  );
});
