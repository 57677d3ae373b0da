import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FusedEntry } from './fuse-scores.js';
import { planPassages } from './plan-passages.js';

const part = (chunkId: string, messageIds: string): FusedEntry => ({
  chunkId,
  part: { id: `${chunkId}:${messageIds}`, messageIds },
  fused: 1,
  relative: 1,
  signals: {},
});
const whole = (chunkId: string): FusedEntry => ({ chunkId, fused: 1, relative: 1, signals: {} });
const ids = (passages: ReturnType<typeof planPassages>) =>
  passages.map((p) => p.messageIds?.join(',') ?? p.chunkId);

test('each part adds only the messages no better passage holds: no turn is returned twice', () => {
  const passages = planPassages(
    [part('c', 'm2,m3'), part('c', 'm3,m4'), part('c', 'm2,m3'), part('d', 'n1,n2')],
    {
      limit: 10,
    },
  );
  assert.deepEqual(ids(passages), ['m2,m3', 'm4', 'n1,n2']);
});

test('excluded messages are never returned; a whole chunk holding one is left out, as st does', () => {
  const passages = planPassages([part('c', 'm1,m2'), whole('st1'), whole('st2'), part('c', 'm2,m3')], {
    limit: 10,
    excludeMessageIds: new Set(['m2', 's1']),
    chunkMessageIds: (chunkId) => (chunkId === 'st1' ? ['s1', 's2'] : ['t1']),
  });
  assert.deepEqual(ids(passages), ['m1', 'st2', 'm3']);
});

test('skipped chunks give nothing and the limit counts passages', () => {
  const entries = [part('gone', 'g1,g2'), part('c', 'm1,m2'), part('c', 'm3,m4'), part('d', 'n1,n2')];
  assert.deepEqual(ids(planPassages(entries, { limit: 2, skipChunks: new Set(['gone']) })), [
    'm1,m2',
    'm3,m4',
  ]);
});
