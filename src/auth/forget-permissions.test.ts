import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ApiKeyConfig } from '../config/config-types.js';
import { forgetPermissions } from './forget-permissions.js';

const key = (overrides: Partial<ApiKeyConfig>): ApiKeyConfig => ({
  name: 'discord-bot',
  key: 'secret',
  bots: '*',
  sources: '*',
  scopes: ['forget'],
  ...overrides,
});

test('without keys a caller may forget everything, unsourced points included', () => {
  assert.deepEqual(forgetPermissions({ kind: 'open' }), {
    actor: 'open',
    sources: undefined,
    unsourced: true,
  });
});

test("a source-scoped key forgets only in its sources, and never SillyTavern's unsourced points", () => {
  assert.deepEqual(forgetPermissions({ kind: 'key', key: key({ sources: ['discord'] }) }), {
    actor: 'discord-bot',
    sources: ['discord'],
    unsourced: false,
  });
});

test('an admin key may forget the unsourced points', () => {
  const permissions = forgetPermissions({ kind: 'key', key: key({ scopes: ['admin'] }) });
  assert.equal(permissions.unsourced, true);
  assert.equal(permissions.sources, undefined);
});
