import assert from 'node:assert/strict';
import { test } from 'node:test';
import { splitQuestion } from './split-question.js';

test('a question about what each of two people did is asked once per person, without "both" / "each"', () => {
  assert.deepEqual(splitQuestion('What do Caroline and Melanie both enjoy?'), [
    'What do Caroline enjoy?',
    'What do Melanie enjoy?',
  ]);
  assert.deepEqual(splitQuestion('What did Jon and Gina each buy in Paris?'), [
    'What did Jon buy in Paris?',
    'What did Gina buy in Paris?',
  ]);
});

test('a list of names with commas and "&" gives one question each, at most four', () => {
  assert.deepEqual(splitQuestion('Where did Anna, Bob & Cleo each go?'), [
    'Where did Anna go?',
    'Where did Bob go?',
    'Where did Cleo go?',
  ]);
  assert.equal(splitQuestion('Did Ann, Bo, Cy, Di and Ed both come?')?.length, 4);
});

test('a question about one thing people did together, or that joins no two names, is asked whole', () => {
  assert.equal(splitQuestion('When did Jon and Gina decide to collaborate?'), undefined);
  assert.equal(splitQuestion('What do Melanie and her kids both like about salt and pepper?'), undefined);
  assert.equal(splitQuestion('what do caroline and melanie both enjoy?'), undefined);
  assert.equal(splitQuestion('Why and How did both happen?'), undefined);
  assert.equal(splitQuestion('What did Anna and Anna both say?'), undefined);
  assert.equal(splitQuestion(''), undefined);
});
