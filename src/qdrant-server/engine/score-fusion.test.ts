import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fuseDistributions, fuseRanks, normalizeDistribution, rankScore } from './score-fusion.js';

const hits = (...ids: string[]) => ids.map((id, i) => ({ item: id, score: 100 - i }));
const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const self = (id: string) => id;

describe('score fusion', () => {
  test('an RRF position scores 1 / (position + k), stretched by a weight', () => {
    assert.equal(rankScore(0, 2), 0.5);
    assert.equal(rankScore(3, 60), Math.fround(1 / 63));
    // weight 2 halves the position term: (0 + 1) / 2 + 2 - 1 = 1.5.
    assert.equal(rankScore(0, 2, 2), Math.fround(1 / 1.5));
    assert.equal(rankScore(0, 2, 0), 0);
  });

  test('RRF sums positions across lists and ignores the input scores', async () => {
    const fused = await fuseRanks([hits('a', 'b'), hits('b', 'c')], 2, undefined, self, byId);
    assert.deepEqual(
      fused.map((hit) => [hit.item, hit.score]),
      [
        ['b', Math.fround(Math.fround(1 / 3) + 0.5)],
        ['a', 0.5],
        ['c', Math.fround(1 / 3)],
      ],
    );
    const weighted = await fuseRanks([hits('a'), hits('c')], 2, [1, 3], self, byId);
    assert.deepEqual(
      weighted.map((hit) => hit.item),
      ['c', 'a'],
    );
  });

  test('DBSF normalizes with mean ± 3 sample standard deviations; short or flat lists give 0.5', async () => {
    // [1, 2, 3]: mean 2, sample variance 1, so the extremes are -1 and 5.
    assert.deepEqual(normalizeDistribution([3, 2, 1]), [4 / 6, 3 / 6, 2 / 6].map(Math.fround));
    assert.deepEqual(normalizeDistribution([7]), [0.5]);
    assert.deepEqual(normalizeDistribution([2, 2, 2]), [0.5, 0.5, 0.5]);
    const fused = await fuseDistributions(
      [
        [
          { item: 'a', score: 3 },
          { item: 'b', score: 2 },
          { item: 'c', score: 1 },
        ],
        [{ item: 'c', score: 9 }],
      ],
      self,
      byId,
    );
    assert.deepEqual(
      fused.map((hit) => [hit.item, hit.score]),
      [
        ['c', Math.fround(Math.fround(2 / 6) + 0.5)],
        ['a', Math.fround(4 / 6)],
        ['b', 0.5],
      ],
    );
  });
});

test('RRF weights must be one per prefetch, as Qdrant refuses otherwise', async () => {
  const list = [{ item: 'a', score: 1 }];
  await assert.rejects(
    () =>
      fuseRanks(
        [list, list],
        2,
        [1],
        (item: string) => item,
        () => 0,
      ),
    /Number of weights in RRF should match number of pre-fetches: got 1, expected 2/,
  );
});
