import assert from 'node:assert/strict';
import { test } from 'node:test';
import { testBot } from '../config/test-support/test-bot.js';
import type { Journal } from '../journal/journal.js';
import { listIndexedCollections } from './indexed-collections.js';

test('serve asks the dmWith index on a reembed target and its parts at start, every index on the bot’s own', async () => {
  const routes = {
    resolve: async (name: string) => (name === 'mem_b' ? 'mem_b__m2' : name),
    followerOf: async (name: string) => (name === 'mem_a' ? 'mem_a__m1' : undefined),
  } as unknown as Journal['routes'];
  // What the routes name beside a bot's collection (b resolves elsewhere, a reembed builds a's next one) gets dmWith.
  const bots = { a: testBot('a', { collection: 'mem_a' }), b: testBot('b', { collection: 'mem_b' }) };
  const listed = await listIndexedCollections({ routes }, bots, () => assert.fail('no failure'));
  assert.deepEqual(Object.fromEntries(listed), {
    mem_a: ['timeline', 'dmWith'],
    mem_a__m1: ['dmWith'],
    mem_a__m1__parts: ['dmWith'],
    mem_a__parts: ['dmWith'],
    mem_b: ['timeline', 'dmWith'],
    mem_b__m2: ['dmWith'],
    mem_b__m2__parts: ['dmWith'],
    mem_b__parts: ['dmWith'],
  });
  assert.deepEqual([...listed.keys()], [...listed.keys()].sort(), 'in name order');
});

test('routes that cannot be read still leave the bots’ own collections indexed, and say so', async () => {
  const routes = {
    resolve: async () => {
      throw new Error('journal down');
    },
  } as unknown as Journal['routes'];
  const failures: string[] = [];
  const listed = await listIndexedCollections(
    { routes },
    { a: testBot('a', { collection: 'mem_a' }) },
    (family, collection) => failures.push(`${family} ${collection}`),
  );
  assert.deepEqual(Object.fromEntries(listed), { mem_a: ['timeline', 'dmWith'] });
  assert.deepEqual(failures, ['dmWith (routes)']);
});
