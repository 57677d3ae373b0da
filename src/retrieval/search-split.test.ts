import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FusedEntry } from './fuse-scores.js';
import { mergeRoundRobin } from './search-split.js';

const part = (id: string, fused: number): FusedEntry => ({
  chunkId: `c-${id}`,
  part: { id, messageIds: id },
  fused,
  relative: fused,
  signals: {},
});
const ranking = (...entries: FusedEntry[]) => ({ entries, chunks: new Map() });

test("each person's best passage comes in turn, however far below the other's near-copies it scores", () => {
  const helen = ranking(part('h1', 1), part('h2', 0.99), part('h3', 0.98), part('shared', 0.97));
  const marco = ranking(part('m1', 0.4), part('shared', 0.3), part('m2', 0.2));
  const merged = mergeRoundRobin([helen, marco]).entries.map((entry) => entry.part?.id);
  // "shared" is ranked by both: it counts once, at its first place (Marco's second), and Helen's turn moves on.
  assert.deepEqual(merged, ['h1', 'm1', 'h2', 'shared', 'h3', 'm2']);
});
