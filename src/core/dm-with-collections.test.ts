import assert from 'node:assert/strict';
import { test } from 'node:test';
import { testBot } from '../config/test-support/test-bot.js';
import type { Journal } from '../journal/journal.js';
import { listDmWithCollections } from './dm-with-collections.js';

test('serve asks the dmWith index on a reembed target and its parts at start, beside the bot’s own', async () => {
  const routes = {
    resolve: async (name: string) => (name === 'mem_b' ? 'mem_b__m2' : name),
    followerOf: async (name: string) => (name === 'mem_a' ? 'mem_a__m1' : undefined),
  } as unknown as Journal['routes'];
  const bots = { a: testBot('a', { collection: 'mem_a' }), b: testBot('b', { collection: 'mem_b' }) };
  assert.deepEqual(await listDmWithCollections({ routes }, bots), [
    'mem_a',
    'mem_a__m1',
    'mem_a__m1__parts',
    'mem_a__parts',
    'mem_b',
    'mem_b__m2',
    'mem_b__m2__parts',
    'mem_b__parts',
  ]);
});
