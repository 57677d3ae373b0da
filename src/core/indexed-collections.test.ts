import assert from 'node:assert/strict';
import { test } from 'node:test';
import { testBot } from '../config/test-support/test-bot.js';
import type { Journal } from '../journal/journal.js';
import { listIndexedCollections } from './indexed-collections.js';

test('serve asks every index on a bot’s own collection, the one a reembed switched it to and a reembed’s target, dmWith on their parts', async () => {
  const routes = {
    resolve: async (name: string) => (name === 'mem_b' ? 'mem_b__m2' : name),
    followerOf: async (name: string) => (name === 'mem_a' ? 'mem_a__m1' : undefined),
  } as unknown as Journal['routes'];
  // What the routes name beside a bot's collection (b resolves elsewhere, a reembed builds a's next one) is a chunks
  // collection too: without the timeline index the viewer's timeline of b would fall back to storage order.
  const bots = { a: testBot('a', { collection: 'mem_a' }), b: testBot('b', { collection: 'mem_b' }) };
  const listed = await listIndexedCollections({ routes }, bots, () => assert.fail('no failure'));
  assert.deepEqual(Object.fromEntries(listed), {
    mem_a: ['timeline', 'dmWith'],
    mem_a__m1: ['timeline', 'dmWith'],
    mem_a__m1__parts: ['time', 'dmWith'],
    mem_a__parts: ['time', 'dmWith'],
    mem_b: ['timeline', 'dmWith'],
    mem_b__m2: ['timeline', 'dmWith'],
    mem_b__m2__parts: ['time', 'dmWith'],
    mem_b__parts: ['time', 'dmWith'],
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
