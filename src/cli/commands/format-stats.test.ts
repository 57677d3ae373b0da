import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type CliBotStats, formatStatsTable } from './format-stats.js';

const stats: CliBotStats = {
  bot: 'mythos',
  collection: 'mem_mythos',
  model: 'm',
  pointsBySource: { discord: 4 },
  points: 4,
  messagesBySource: { discord: 8 },
  pending: 0,
  forgotten: 0,
  oldest: null,
  newest: null,
};

test('memory-pool stats says how many chunks a rename pass has left, only while one runs', () => {
  assert.doesNotMatch(formatStatsTable([stats]), /renaming/);
  const running = formatStatsTable([{ ...stats, renaming: { chunksLeft: 120, accountsWaiting: 2 } }]);
  assert.match(
    running,
    /mythos: .*; renaming after a link change: 120 chunks left to rewrite \(and the chunks of 2 accounts not counted yet\)\n/,
  );
  assert.match(
    formatStatsTable([{ ...stats, renaming: { chunksLeft: 1, accountsWaiting: 0 } }]),
    /renaming after a link change: 1 chunk left to rewrite\n/,
  );
});
