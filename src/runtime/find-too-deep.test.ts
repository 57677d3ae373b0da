import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findTooDeep } from './find-too-deep.js';

test('counts nesting of arrays and objects, not brackets inside strings or escaped quotes', () => {
  assert.equal(findTooDeep('1', 0), -1);
  assert.equal(findTooDeep('[]', 0), 0);
  assert.equal(findTooDeep('{"a":[1,{"b":{}}]}', 4), -1);
  assert.equal(findTooDeep('{"a":[1,{"b":{}}]}', 3), 13);
  assert.equal(findTooDeep('{"a":"[[[{{{"}', 1), -1);
  assert.equal(findTooDeep('["\\"[[[", [2]]', 2), -1);
  assert.equal(findTooDeep('[[],[],[[]]]', 2), 8);
});

test('scans 100,000-deep text without recursion and stops at the first container past the limit', () => {
  const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
  assert.equal(findTooDeep(deep, 100_000), -1);
  assert.equal(findTooDeep(deep, 64), 64);
});

/** The character-by-character scan this one replaced, as the reference the jumping scan must agree with. */
function referenceScan(text: string, limit: number): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '[' || c === '{') {
      depth++;
      if (depth > limit) return i;
    } else if (c === ']' || c === '}') depth--;
  }
  return -1;
}

test('a quote after an even run of backslashes closes the string; after an odd run it does not', () => {
  assert.equal(findTooDeep('["\\\\", [[1]]]', 2), 8);
  assert.equal(findTooDeep('["\\\\\\", [[1]]]', 2), -1);
  assert.equal(findTooDeep('["unterminated [[[', 1), -1);
});

test('agrees with the character-by-character scan on 5,000 random texts of brackets, quotes and escapes', () => {
  let seed = 7;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const alphabet = ['[', ']', '{', '}', '"', '\\', '1', ',', 'a'];
  for (let n = 0; n < 5_000; n++) {
    const text = Array.from({ length: 1 + Math.floor(random() * 40) }, () => {
      return alphabet[Math.floor(random() * alphabet.length)]!;
    }).join('');
    const limit = Math.floor(random() * 4);
    assert.equal(
      findTooDeep(text, limit),
      referenceScan(text, limit),
      `text ${JSON.stringify(text)} limit ${limit}`,
    );
  }
});
