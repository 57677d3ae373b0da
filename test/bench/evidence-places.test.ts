/**
 * @module bench/recall/evidence-recall.ts's placeEvidence: where the recall benchmark says each evidence turn
 * lies in the returned turns, counted in turns across hits of different sizes, so its table of what a
 * re-ranking could still reach is right.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { placeEvidence } from '../../bench/recall/evidence-recall.js';

/** A hit holding these message ids (the text is not read). */
const hit = (...ids: string[]) => ({ messageIds: ids.join(','), text: '' });

test('an evidence turn is placed by the turns before it, whatever the hits hold', () => {
  // 9 turns in two hits, then a hit of two: its second turn is the 11th.
  const hits = [hit('D1:1', 'D1:2', 'D1:3', 'D1:4'), hit('D2:1', 'D2:2', 'D2:3', 'D2:4', 'D2:5'), hit('D3:7', 'D3:8')];
  assert.deepEqual(placeEvidence(hits, ['D2:5', 'D3:7', 'D3:8', 'D9:9']), ['1-10', '1-10', '11-25', 'not returned']);
});

test('turns past 25 and past 50 fall in their own bands; ids are trimmed and a repeat keeps its first place', () => {
  const many = Array.from({ length: 60 }, (_, i) => hit(`D1:${i + 1}`));
  const hits = [...many.slice(0, 30), hit(' D1:1 ', 'D7:1'), ...many.slice(30)];
  assert.deepEqual(placeEvidence(hits, ['D1:1', 'D1:26', 'D7:1', 'D1:60']), ['1-10', '26-50', '26-50', 'past 50']);
});
