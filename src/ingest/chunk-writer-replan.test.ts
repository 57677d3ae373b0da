/**
 * @module The chunk writer plans again mid-pass: chunks that became ready while a pass wrote (a remainder that
 * went idle, messages a /save brought) are written in that pass, embedding while the last batch is stored.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { testBot } from '../config/test-support/test-bot.js';
import { HashingEmbedder } from '../embedding/hashing/hashing-embedder.js';
import { openSqliteJournal } from '../journal/sqlite/sqlite-journal.js';
import { createLogger } from '../logging/logger.js';
import { createServiceMetrics } from '../metrics/service-metrics.js';
import { createCollectionGuard } from '../store/collection-guard.js';
import { createMemoryPointStore } from '../store/test-support/memory-point-store.js';
import { ChunkWriter } from './chunk-writer.js';

const START = 1_764_547_200_000;
const IDLE_MS = 1_000;

/** A model whose every call takes `stepMs` of the writer's clock, and which counts its calls. */
class SlowClockEmbedder extends HashingEmbedder {
  calls = 0;
  constructor(readonly clock: { now: number }) {
    super({ dimensions: 16 });
  }
  override embed(texts: readonly string[]): Promise<Float32Array[]> {
    this.calls += 1;
    this.clock.now += 2 * IDLE_MS;
    return super.embed(texts);
  }
}

function message(channelId: string, messageId: string, text: string) {
  return {
    bot: 'mythos',
    source: 'discord',
    messageId,
    speakerKind: 'user' as const,
    text,
    ts: START,
    channelId,
  };
}

test('a remainder that goes idle while the pass writes is written by that pass, while the last batch is stored', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'chunk-writer-replan-'));
  const journal = openSqliteJournal(dir);
  const clock = { now: START };
  const embedder = new SlowClockEmbedder(clock);
  let callsAtFirstStore: number | undefined;
  const store = createMemoryPointStore({
    beforeCall: async ({ method }) => {
      if (method === 'upsertPoints') callsAtFirstStore ??= embedder.calls;
    },
  });
  const writer = new ChunkWriter({
    bots: { mythos: testBot('mythos', { chunk: { minChars: 60, maxChars: 100, idleMs: IDLE_MS } }) },
    journal,
    store,
    embedder,
    guard: createCollectionGuard(store, journal),
    metrics: createServiceMetrics(() => journal.queueDepth(), { processMetrics: false }),
    logger: createLogger({ level: 'silent' }),
    now: () => clock.now,
  });
  try {
    // One full chunk, ready now; one short message, a remainder until its conversation is idle for 1 s.
    await journal.recordMessages(
      [message('full', 'm1', `full ${'x'.repeat(70)}`), message('short', 'm2', 'see you at the lighthouse')],
      START,
    );
    await writer.runOnce();
    assert.deepEqual(await journal.queueDepth(), { pendingMessages: 0, plannedChunks: 0, storedChunks: 2 });
    assert.equal(store.heldPoints('mem_mythos').length, 2);
    assert.equal(callsAtFirstStore, 2, 'the remainder reached the model before the first chunk was stored');
  } finally {
    await writer.stop();
    await journal.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('messages a /save brings while the pass writes are planned by that pass, the next batch embedding meanwhile', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'chunk-writer-replan-'));
  const journal = openSqliteJournal(dir);
  let calls = 0;
  let callsAtFirstStore: number | undefined;
  let writer: ChunkWriter | undefined;
  /** The first model call is where a /save lands: new messages, and the wake /save gives the writer. */
  class SaveDuringEmbed extends HashingEmbedder {
    override async embed(texts: readonly string[]): Promise<Float32Array[]> {
      calls += 1;
      if (calls === 1) {
        await journal.recordMessages([message('second', 'm2', `second ${'y'.repeat(70)}`)], START);
        writer!.wake();
        await sleep(50); // the wake's timer fires while this pass is still writing
      }
      return super.embed(texts);
    }
  }
  const store = createMemoryPointStore({
    beforeCall: async ({ method }) => {
      if (method !== 'upsertPoints') return;
      callsAtFirstStore ??= calls;
    },
  });
  writer = new ChunkWriter({
    bots: { mythos: testBot('mythos', { chunk: { minChars: 60, maxChars: 100, idleMs: IDLE_MS } }) },
    journal,
    store,
    embedder: new SaveDuringEmbed({ dimensions: 16 }),
    guard: createCollectionGuard(store, journal),
    metrics: createServiceMetrics(() => journal.queueDepth(), { processMetrics: false }),
    logger: createLogger({ level: 'silent' }),
    now: () => START,
  });
  try {
    await journal.recordMessages([message('first', 'm1', `first ${'x'.repeat(70)}`)], START);
    writer.start();
    for (let waited = 0; (await journal.queueDepth()).storedChunks < 2 && waited < 5_000; waited += 10) {
      await sleep(10);
    }
    assert.equal((await journal.queueDepth()).storedChunks, 2);
    assert.equal(callsAtFirstStore, 2, 'the second chunk reached the model before the first was stored');
  } finally {
    await writer.stop();
    await journal.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a wake a mid-pass replan planned nothing for still gets a pass at once, not after the idle poll', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'chunk-writer-replan-'));
  const journal = openSqliteJournal(dir);
  const passes: Array<Promise<number | undefined>> = [];
  let writer: ChunkWriter | undefined;
  /** A /save's wake lands while the first chunk embeds (an edit, say: nothing for a replan to plan). */
  class WakeDuringEmbed extends HashingEmbedder {
    override async embed(texts: readonly string[]): Promise<Float32Array[]> {
      if (passes.length === 1) {
        writer!.wake();
        await sleep(50); // the wake's timer fires while this pass is still writing
      }
      return super.embed(texts);
    }
  }
  /** Counts passes: the background loop runs each through runOnce. */
  class CountingWriter extends ChunkWriter {
    override runOnce(options?: { flush?: boolean }): Promise<number | undefined> {
      const pass = super.runOnce(options);
      passes.push(pass);
      return pass;
    }
  }
  const store = createMemoryPointStore();
  writer = new CountingWriter({
    bots: { mythos: testBot('mythos', { chunk: { minChars: 60, maxChars: 100, idleMs: IDLE_MS } }) },
    journal,
    store,
    embedder: new WakeDuringEmbed({ dimensions: 16 }),
    guard: createCollectionGuard(store, journal),
    metrics: createServiceMetrics(() => journal.queueDepth(), { processMetrics: false }),
    logger: createLogger({ level: 'silent' }),
    now: () => START,
  });
  try {
    await journal.recordMessages([message('first', 'm1', `first ${'x'.repeat(70)}`)], START);
    writer.start();
    for (let waited = 0; passes.length === 0 && waited < 5_000; waited += 10) await sleep(10);
    await passes[0];
    // The loop goes straight on to the next pass when a wake is owed; otherwise it sleeps the 1 s idle poll.
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(passes.length, 2, 'the wake waited for the idle poll');
  } finally {
    await writer.stop();
    await journal.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
