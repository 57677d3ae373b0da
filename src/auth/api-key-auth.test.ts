import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readPresentedKey } from './api-key-auth.js';

test('the Bearer scheme is read case-insensitively; x-api-key is the fallback', () => {
  const key = (headers: Record<string, string>) => readPresentedKey(new Headers(headers));
  assert.equal(key({ authorization: 'Bearer k-0123456789abcdef' }), 'k-0123456789abcdef');
  assert.equal(key({ authorization: 'bearer k-0123456789abcdef' }), 'k-0123456789abcdef');
  assert.equal(key({ authorization: 'BEARER   k-0123456789abcdef ' }), 'k-0123456789abcdef');
  assert.equal(key({ authorization: 'Basic dXNlcjpwYXNz', 'x-api-key': 'x-key' }), 'x-key');
  assert.equal(key({ authorization: 'Bearer ' }), undefined);
  assert.equal(key({}), undefined);
});
