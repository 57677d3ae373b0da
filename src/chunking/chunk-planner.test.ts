import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatChunk } from './chunk-format.js';
import { type ChunkPlanInput, measureMessage, planChunks } from './chunk-planner.js';
import type { MemoryMessage, SpeakerConfig } from './memory-message.js';

const speakers: SpeakerConfig = { selfSpeaker: 'Mythos', speakerAliases: { '111': 'Ada' } };
const sizes = { minChars: 1200, maxChars: 1500, idleMs: 30_000, maxGapMs: 1_800_000 };
const NOW = 1_700_000_000_000;

let nextId = 0;
/** A message from Ada whose st-qdrant-memory size is exactly `size` (text + "Ada".length + 4). */
function sized(size: number, ts = nextId): MemoryMessage {
  nextId += 1;
  return {
    bot: 'mythos',
    source: 'discord',
    messageId: `m${nextId}`,
    speakerKind: 'user',
    userId: '111',
    text: 'x'.repeat(size - 7),
    ts,
  };
}

function plan(pending: MemoryMessage[], overrides: Partial<ChunkPlanInput> = {}) {
  const result = planChunks({ pending, sizes, speakers, now: NOW, lastArrivalMs: NOW, ...overrides });
  return {
    ready: result.ready.map((chunk) => chunk.map((message) => message.messageId)),
    pending: result.pending.map((message) => message.messageId),
    flushAt: result.flushAt,
  };
}

describe('measureMessage', () => {
  test('counts text + speaker + 4 like st-qdrant-memory, on the text as written (mentions rewritten)', () => {
    const message = sized(10);
    assert.equal(measureMessage(message, speakers), 10);
    assert.equal(measureMessage({ ...message, text: 'hi <@111>' }, speakers), 'hi Ada'.length + 3 + 4);
    assert.equal(measureMessage({ ...message, speakerKind: 'self', text: 'ok' }, speakers), 2 + 6 + 4);
  });
});

describe('planChunks', () => {
  test('closes a chunk after the message that brings it to minChars', () => {
    const [a, b, c] = [sized(600), sized(600), sized(100)];
    assert.deepEqual(plan([a!, b!, c!]), {
      ready: [[a!.messageId, b!.messageId]],
      pending: [c!.messageId],
      flushAt: NOW + 30_000,
    });
  });

  test('stays pending just under minChars', () => {
    const [a, b] = [sized(600), sized(599)];
    assert.deepEqual(plan([a!, b!]).ready, []);
  });

  test('closes a chunk before a message that would pass maxChars, but allows exactly maxChars', () => {
    const [a, b] = [sized(1000), sized(501)];
    assert.deepEqual(plan([a!, b!]), {
      ready: [[a!.messageId]],
      pending: [b!.messageId],
      flushAt: NOW + 30_000,
    });
    const [c, d] = [sized(1000), sized(500)];
    assert.deepEqual(plan([c!, d!]).ready, [[c!.messageId, d!.messageId]]);
  });

  test('an oversize message becomes a chunk on its own, never split', () => {
    const [a, b, c] = [sized(300), sized(4000), sized(50)];
    const result = plan([a!, b!, c!]);
    assert.deepEqual(result.ready, [[a!.messageId], [b!.messageId]]);
    assert.deepEqual(result.pending, [c!.messageId]);
  });

  test('plans in ts order whatever order the messages come in', () => {
    const late = sized(600, 20);
    const early = sized(600, 10);
    assert.deepEqual(plan([late, early]).ready, [[early.messageId, late.messageId]]);
  });

  test('flushes the remainder once the last arrival is idleMs old, measured by arrival not ts', () => {
    const old = sized(100, NOW - 86_400_000);
    assert.deepEqual(plan([old], { lastArrivalMs: NOW - 29_999 }).ready, []);
    assert.deepEqual(plan([old], { lastArrivalMs: NOW - 30_000 }), {
      ready: [[old.messageId]],
      pending: [],
      flushAt: undefined,
    });
  });

  test('flush writes the remainder at once', () => {
    const message = sized(100);
    assert.deepEqual(plan([message], { flush: true }).ready, [[message.messageId]]);
  });

  test('a history sent in one go is cut where its own timestamps pause longer than maxGapMs', () => {
    const start = Date.UTC(2023, 4, 8, 13, 0);
    const minute = 60_000;
    const [a, b, c, d] = [
      sized(100, start),
      sized(100, start + 30 * minute), // exactly maxGapMs after a: same chunk
      sized(100, start + 60 * minute + 1), // just over maxGapMs after b: a new chunk
      sized(100, start + 61 * minute),
    ];
    // All sent just now (the import's arrival), nowhere near minChars: the pause alone closes the first chunk.
    assert.deepEqual(plan([a!, b!, c!, d!]), {
      ready: [[a!.messageId, b!.messageId]],
      pending: [c!.messageId, d!.messageId],
      flushAt: NOW + 30_000,
    });
  });

  test('a chunk never spans two UTC days, so its date header is the day of every message in it', () => {
    const beforeMidnight = sized(100, Date.UTC(2023, 4, 8, 23, 59));
    const afterMidnight = sized(100, Date.UTC(2023, 4, 9, 0, 1)); // 2 minutes later, another day
    const laterThatDay = sized(100, Date.UTC(2023, 4, 9, 0, 5));
    const pending = [beforeMidnight, afterMidnight, laterThatDay];
    const result = planChunks({ pending, sizes, speakers, now: NOW, lastArrivalMs: NOW, flush: true });
    assert.deepEqual(
      result.ready.map((chunk) => chunk.map((message) => message.messageId)),
      [[beforeMidnight.messageId], [afterMidnight.messageId, laterThatDay.messageId]],
    );
    for (const chunk of result.ready) {
      const header = formatChunk(chunk, speakers).text.slice(1, 11);
      for (const message of chunk) assert.equal(new Date(message.ts).toISOString().slice(0, 10), header);
    }
  });

  test('live chat with close timestamps still waits for idleness by arrival', () => {
    const start = Date.UTC(2023, 4, 8, 13, 0);
    const [a, b] = [sized(100, start), sized(100, start + 29 * 60_000)];
    assert.deepEqual(plan([a!, b!]).ready, []);
    assert.deepEqual(plan([a!, b!], { lastArrivalMs: NOW - 30_000 }).ready, [[a!.messageId, b!.messageId]]);
  });

  test('nothing pending plans nothing', () => {
    assert.deepEqual(plan([]), { ready: [], pending: [], flushAt: undefined });
  });
});
