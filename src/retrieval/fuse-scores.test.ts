import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DENSE_WEIGHT, fuseScores, LEXICAL_WEIGHT, type RankedEntry } from './fuse-scores.js';

const part = (chunkId: string, id: string, score: number): RankedEntry => ({
  chunkId,
  score,
  part: { id, messageIds: `${id}-m1,${id}-m2` },
});

test('a clear lexical winner beats parts the dense signal barely tells apart', () => {
  // Dense sees a near-tie; BM25 sees one part far ahead. Rank fusion would put the dense top first.
  const fused = fuseScores({
    dense: [part('a', 'a1', 0.61), part('b', 'b1', 0.6), part('c', 'c1', 0.3)],
    lexical: [part('b', 'b1', 12), part('a', 'a1', 1), part('c', 'c1', 0.5)],
  });
  assert.deepEqual(
    fused.map((f) => f.part?.id),
    ['b1', 'a1', 'c1'],
  );
  const [b] = fused;
  assert.ok(Math.abs(b!.fused - (DENSE_WEIGHT * (0.3 / 0.31) + LEXICAL_WEIGHT * 1)) < 1e-12);
  assert.deepEqual(b!.signals.part_dense, { rank: 2, score: 0.6 });
  assert.deepEqual(b!.signals.part_lexical, { rank: 1, score: 12 });
});

test('first in every signal is relative 1; with no lexical terms the dense signal alone reaches 1', () => {
  const both = fuseScores({
    dense: [part('a', 'a1', 0.9), part('b', 'b1', 0.5)],
    lexical: [part('a', 'a1', 3)],
  });
  assert.equal(both[0]!.relative, 1);
  assert.equal(both[1]!.relative, 0, 'last in dense and absent from lexical');
  const denseOnly = fuseScores({ dense: [part('a', 'a1', 0.9), part('b', 'b1', 0.5)] });
  assert.equal(denseOnly[0]!.relative, 1);
});

test('chunks without parts share the dense scale with parts and are named chunk_dense', () => {
  const fused = fuseScores({
    dense: [part('a', 'a1', 0.8), { chunkId: 'st', score: 0.7 }, part('b', 'b1', 0.4)],
  });
  assert.deepEqual(
    fused.map((f) => f.part?.id ?? f.chunkId),
    ['a1', 'st', 'b1'],
  );
  assert.deepEqual(fused[1]!.signals, { chunk_dense: { rank: 2, score: 0.7 } });
  assert.equal(fused[1]!.part, undefined);
});

test('an entry listed twice counts once, at its first place; equal scores go to the better cosine', () => {
  const fused = fuseScores({
    dense: [part('a', 'a1', 0.9), part('a', 'a1', 0.9), part('b', 'b1', 0.5)],
    lexical: [part('b', 'b1', 2), part('a', 'a1', 1)],
  });
  assert.equal(fused.length, 2);
  // a1: 0.5 * 1 + 0.5 * 0 = 0.5; b1: 0.5 * 0 + 0.5 * 1 = 0.5: a tie, broken by cosine.
  assert.deepEqual(
    fused.map((f) => f.part?.id),
    ['a1', 'b1'],
  );
});
