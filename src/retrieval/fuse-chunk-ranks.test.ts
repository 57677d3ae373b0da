import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fuseChunkRanks, RRF_K, type RankedEntry } from './fuse-chunk-ranks.js';

const part = (chunkId: string, id: string, score = 0.5): RankedEntry => ({
  chunkId,
  score,
  part: { id, messageIds: id },
});

test('a chunk two signals agree on beats a chunk only one signal puts first', () => {
  const fused = fuseChunkRanks({
    chunk_dense: [
      { chunkId: 'a', score: 0.9 },
      { chunkId: 'b', score: 0.8 },
    ],
    part_lexical: [part('b', 'b1', 7), part('c', 'c1', 5)],
  });
  assert.deepEqual(
    fused.map((f) => f.chunkId),
    ['b', 'a', 'c'],
  );
  assert.ok(Math.abs(fused[0]!.fused - (1 / (RRF_K + 2) + 1 / (RRF_K + 1))) < 1e-12);
});

test('parts rank their chunk by the best of them: a chunk counts once per signal', () => {
  const fused = fuseChunkRanks({
    part_dense: [part('a', 'a1', 0.9), part('a', 'a2', 0.8), part('b', 'b1', 0.7)],
  });
  const [a, b] = fused;
  assert.equal(a!.signals.part_dense!.rank, 1);
  assert.equal(a!.signals.part_dense!.partId, 'a1');
  assert.equal(b!.signals.part_dense!.rank, 2, 'the second part of a does not push b down');
  assert.deepEqual(
    a!.parts.map((p) => [p.id, p.ranks.part_dense?.rank]),
    [
      ['a1', 1],
      ['a2', 2],
    ],
  );
});

test('the relative score is 1 for a chunk first in every signal queried and falls with rank', () => {
  const fused = fuseChunkRanks({
    chunk_dense: [
      { chunkId: 'a', score: 0.9 },
      { chunkId: 'b', score: 0.5 },
    ],
    part_dense: [part('a', 'a1'), part('b', 'b1')],
    part_lexical: [part('a', 'a1'), part('b', 'b1')],
  });
  assert.equal(fused[0]!.relative, 1);
  assert.ok(fused[1]!.relative < 1 && fused[1]!.relative > 0.9);
  const alone = fuseChunkRanks({ chunk_dense: [{ chunkId: 'x', score: 0.4 }], part_dense: [] });
  assert.equal(alone[0]!.relative, 0.5, 'first in one of two signals');
});

test('ties go to the better dense score, then to the chunk id', () => {
  const fused = fuseChunkRanks({
    chunk_dense: [{ chunkId: 'z', score: 0.3 }],
    part_dense: [part('y', 'y1', 0.6)],
    part_lexical: [part('x', 'x1', 9)],
  });
  assert.deepEqual(
    fused.map((f) => f.chunkId),
    ['y', 'z', 'x'],
  );
});
