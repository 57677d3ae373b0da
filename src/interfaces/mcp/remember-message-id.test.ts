/** @module Remember ids: the same line maps to the same id; another speaker or client id is another message. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deriveRememberMessageId } from './remember-message-id.js';

test('the id is stable for the same text, speaker and client id', () => {
  assert.equal(deriveRememberMessageId('hi', 'self'), deriveRememberMessageId('hi', 'self'));
  assert.match(deriveRememberMessageId('hi', 'self'), /^mcp:[0-9a-f]{32}$/);
});

test('speaker, client id and the text boundary all change the id', () => {
  const base = deriveRememberMessageId('hi', 'self');
  assert.notEqual(deriveRememberMessageId('hi', 'Ana'), base);
  assert.notEqual(deriveRememberMessageId('hi', 'self', 'msg-1'), base);
  assert.notEqual(deriveRememberMessageId('ab', 'c'), deriveRememberMessageId('a', 'bc'));
});
