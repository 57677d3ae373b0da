import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type PartLine, planParts } from './plan-parts.js';

/** Characters as tokens: enough to pin the fitting rule. */
const chars = (text: string) => text.length;
const lines = (...texts: string[]): PartLine[] =>
  texts.map((text, i) => ({ messageId: `m${i + 1}`, line: `A: ${text}`, ts: 1000 + i }));

test('each message is paired with its next neighbor, one step apart', () => {
  const parts = planParts(lines('one', 'two', 'three', 'four'), {
    messagesPerPart: 2,
    maxTokens: 400,
    countTokens: chars,
  });
  assert.deepEqual(
    parts.map((p) => p.messageIds),
    [
      ['m1', 'm2'],
      ['m2', 'm3'],
      ['m3', 'm4'],
    ],
  );
  assert.equal(parts[1]!.text, 'A: two\nA: three');
  assert.equal(parts[1]!.timestamp, 1001);
});

test('a chunk shorter than a window is one part; a window of one is every message alone', () => {
  assert.deepEqual(
    planParts(lines('only'), { messagesPerPart: 3, maxTokens: 400, countTokens: chars }).map(
      (p) => p.messageIds,
    ),
    [['m1']],
  );
  assert.equal(
    planParts(lines('a1', 'b2', 'c3'), { messagesPerPart: 1, maxTokens: 400, countTokens: chars }).length,
    3,
  );
});

test("a window that would pass the embedder's window keeps fewer messages, and every message is still in a part", () => {
  const long = 'x'.repeat(300);
  const parts = planParts(lines('short', long, long, 'end'), {
    messagesPerPart: 2,
    maxTokens: 320,
    countTokens: chars,
  });
  const covered = new Set(parts.flatMap((p) => p.messageIds));
  assert.deepEqual([...covered].sort(), ['m1', 'm2', 'm3', 'm4']);
  for (const part of parts) assert.ok(part.messageIds.length === 1 || part.text.length <= 320);
  // A message longer than the window is a part of its own (the embedder pools what it cannot read at once).
  assert.deepEqual(
    planParts(lines('y'.repeat(900)), { messagesPerPart: 2, maxTokens: 320, countTokens: chars }).map(
      (p) => p.messageIds,
    ),
    [['m1']],
  );
});

test('for an embedder that reads any length, parts are planned without tokenizing (the costly step)', () => {
  let counted = 0;
  const parts = planParts(lines('one', 'two', 'three'), {
    messagesPerPart: 2,
    maxTokens: Number.POSITIVE_INFINITY,
    countTokens: (text) => {
      counted += 1;
      return text.length;
    },
  });
  assert.equal(parts.length, 2);
  assert.equal(counted, 0);
});
