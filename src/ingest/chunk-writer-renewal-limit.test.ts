/**
 * @module Review s25 finding 2: a batch whose embedder hangs keeps renewing its claims only up to its renewal limit
 * (10 claims); then it is aborted and its claims given back, so another replica writes its chunks, which stayed due.
 * Replicas A and B share one journal and one store; the claim is short and the clock real.
 */
// npm test: alone (100 ms claims on the real clock: beside other files' loaded code a renewal came late)
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { testBot } from '../config/test-support/test-bot.js';
import type { Embedder } from '../embedding/embedder.js';
import { HashingEmbedder } from '../embedding/hashing/hashing-embedder.js';
import type { Journal } from '../journal/journal.js';
import { openSqliteJournal } from '../journal/sqlite/sqlite-journal.js';
import { createLogger } from '../logging/logger.js';
import { createServiceMetrics } from '../metrics/service-metrics.js';
import { createCollectionGuard } from '../store/collection-guard.js';
import { createMemoryPointStore } from '../store/test-support/memory-point-store.js';
import { ChunkWriter } from './chunk-writer.js';

const CLAIM_MS = 100;
/** Only so that a regression fails instead of hanging: the renewal limit here is 1 s. */
const GUARD = { timeout: 10_000 };
/** Every hung embedder made, freed after each test so that a failed one lets the process exit. */
const hung: { free(): void }[] = [];
const TEXT = `m1 the kept words about gardening ${'x'.repeat(40)}`;

/** An embedder that never answers until `free()`; `honoursAbort` makes it reject when its call is aborted. */
function hungEmbedder(honoursAbort: boolean): Embedder & { free(): void; calls: number } {
  const inner = new HashingEmbedder({ dimensions: 16 });
  const waiting: (() => void)[] = [];
  const embedder: Embedder & { free(): void; calls: number } = {
    model: inner.model,
    dimensions: inner.dimensions,
    inputWindow: inner.inputWindow,
    calls: 0,
    probe: () => inner.probe(),
    free: () => {
      for (const resume of waiting.splice(0)) resume();
    },
    async embed(texts, options) {
      this.calls += 1;
      // Holds the event loop open as a real request's socket would (the writer's own timers do not).
      const socket = setInterval(() => {}, 1_000);
      await new Promise<void>((resolve, reject) => {
        waiting.push(resolve);
        if (honoursAbort) options?.signal?.addEventListener('abort', () => reject(new Error('aborted')));
      }).finally(() => clearInterval(socket));
      return inner.embed(texts);
    },
  };
  hung.push(embedder);
  return embedder;
}

describe('a batch whose embedder hangs', () => {
  let dir: string;
  let journal: Journal;
  const shared = createMemoryPointStore();
  const bots = { mythos: testBot('mythos', { chunk: { minChars: 60, maxChars: 100, idleMs: 1_000 } }) };

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'chunk-writer-renewal-limit-'));
    journal = openSqliteJournal(dir);
    await shared.deleteCollection('mem_mythos');
    const now = Date.now();
    await journal.recordMessages(
      [
        {
          bot: 'mythos',
          source: 'discord',
          messageId: 'm1',
          speakerKind: 'user',
          text: TEXT,
          ts: now - 60_000,
        },
      ],
      now - 60_000,
    );
  });
  afterEach(async () => {
    for (const embedder of hung.splice(0)) embedder.free();
    await journal.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const createWriter = (holder: string, embedder?: Embedder) =>
    new ChunkWriter({
      bots,
      journal,
      store: shared,
      embedder: embedder ?? new HashingEmbedder({ dimensions: 16 }),
      guard: createCollectionGuard(shared, journal),
      metrics: createServiceMetrics(() => journal.queueDepth(), { processMetrics: false }),
      logger: createLogger({ level: 'silent' }),
      holder,
      claimMs: CLAIM_MS,
    });
  const heldTexts = () => shared.heldPoints('mem_mythos').map((p) => String(p.payload.text));

  test(
    'one that honours the abort: the pass ends, nothing stored, the chunk due for any writer',
    GUARD,
    async () => {
      const embedder = hungEmbedder(true);
      const a = createWriter('A', embedder);
      const pass = a.runOnce({ flush: true });
      await sleep(CLAIM_MS * 3);
      assert.equal(embedder.calls, 1, 'A is in its write');
      assert.equal((await journal.chunks.claimDueChunks('B', Date.now(), 10, CLAIM_MS)).length, 0, 'renewed');
      await pass;
      assert.deepEqual(heldTexts(), []);
      const b = createWriter('B');
      await b.runOnce();
      assert.ok(heldTexts()[0]?.includes('gardening'), 'B wrote the chunk A gave up');
      await a.stop();
    },
  );

  test(
    'one that ignores the abort: B takes the chunk over, and A stores nothing when it wakes',
    GUARD,
    async () => {
      const embedder = hungEmbedder(false);
      const a = createWriter('A', embedder);
      const pass = a.runOnce({ flush: true });
      while (embedder.calls === 0) await sleep(10);
      const b = createWriter('B');
      while (heldTexts().length === 0) {
        await b.runOnce();
        await sleep(CLAIM_MS);
      }
      assert.equal(embedder.calls, 1, 'A still hangs in its only write');
      embedder.free();
      await pass;
      assert.equal(shared.heldPoints('mem_mythos').length, 1, "B's point only");
      assert.equal((await journal.chunks.storedChunks('mythos')).length, 1);
      await a.stop();
    },
  );
});
