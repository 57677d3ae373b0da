import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hashLinkCode, newLinkCode, normaliseLinkCode } from './link-code.js';

test('a link code reads as XXXXX-XXXXX, normalises as typed by a person, and codes differ', () => {
  const codes = new Set(Array.from({ length: 2000 }, newLinkCode));
  assert.equal(codes.size, 2000);
  for (const code of codes) assert.match(code, /^[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/);
  const code = [...codes][0]!;
  assert.equal(normaliseLinkCode(` ${code.toLowerCase()} `), code.replace('-', ''));
  assert.equal(normaliseLinkCode('abcde-fghj0'), 'ABCDEFGHJ0');
  assert.equal(normaliseLinkCode('ooiil-12345'), '00111' + '12345');
  assert.equal(normaliseLinkCode('ABCDE-FGHJ'), undefined, 'too short');
  assert.equal(normaliseLinkCode('ABCDE-FGHJU'), undefined, 'U is not in the alphabet');
  assert.notEqual(hashLinkCode('ABCDEFGHJK'), hashLinkCode('ABCDEFGHJM'));
  assert.doesNotMatch(hashLinkCode('ABCDEFGHJK'), /ABCDEFGHJK/);
});
