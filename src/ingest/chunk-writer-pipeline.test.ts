import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { testBot } from '../config/test-support/test-bot.js';
import { HashingEmbedder } from '../embedding/hashing/hashing-embedder.js';
import { openSqliteJournal } from '../journal/sqlite/sqlite-journal.js';
import { createLogger } from '../logging/logger.js';
import { createServiceMetrics } from '../metrics/service-metrics.js';
import { createCollectionGuard } from '../store/collection-guard.js';
import { createMemoryPointStore } from '../store/test-support/memory-point-store.js';
import { ChunkWriter } from './chunk-writer.js';

/** A model that counts its calls (one per batch here). */
class CountingEmbedder extends HashingEmbedder {
  calls = 0;
  override embed(texts: readonly string[]): Promise<Float32Array[]> {
    this.calls += 1;
    return super.embed(texts);
  }
}

test('the next batch is embedded while the last one is stored, and every chunk is stored once', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'chunk-writer-pipeline-'));
  const journal = openSqliteJournal(dir);
  const clock = 1_764_547_200_000;
  const embedder = new CountingEmbedder({ dimensions: 16 });
  let overlapped: boolean | undefined;
  let upserts = 0;
  const store = createMemoryPointStore({
    // The first batch's store write waits (up to 2 s) for the second batch's model call to begin.
    beforeCall: async ({ method }) => {
      if (method !== 'upsertPoints') return;
      upserts += 1;
      if (overlapped !== undefined) return;
      const deadline = Date.now() + 2_000;
      while (embedder.calls < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      overlapped = embedder.calls >= 2;
    },
  });
  const writer = new ChunkWriter({
    bots: { mythos: testBot('mythos', { chunk: { minChars: 60, maxChars: 100, idleMs: 1_000 } }) },
    journal,
    store,
    embedder,
    guard: createCollectionGuard(store, journal),
    metrics: createServiceMetrics(() => journal.queueDepth(), { processMetrics: false }),
    logger: createLogger({ level: 'silent' }),
    now: () => clock,
  });
  try {
    // 40 chunks (each message fills one), more than one write batch of 32.
    const messages = Array.from({ length: 40 }, (_, i) => ({
      bot: 'mythos',
      source: 'discord',
      messageId: `m${i}`,
      speakerKind: 'user' as const,
      text: `${i} ${'x'.repeat(70)}`,
      ts: clock,
      channelId: `c${i}`,
    }));
    await journal.recordMessages(messages, clock);
    await writer.runOnce();
    assert.equal(overlapped, true, 'the second batch reached the model before the first was stored');
    assert.equal(store.heldPoints('mem_mythos').length, 40);
    assert.equal(upserts, 2, 'one upsert per batch, none repeated');
    assert.equal((await journal.queueDepth()).plannedChunks, 0);
  } finally {
    await writer.stop();
    await journal.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
