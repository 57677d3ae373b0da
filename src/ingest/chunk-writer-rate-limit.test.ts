/**
 * @module Test for the chunk writer over a rate-limited endpoint with the default four requests at once: one
 * pass stores every chunk (the embedder's shared gate waits out each 429 instead of failing the call).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { testBot } from '../config/test-support/test-bot.js';
import { OpenAiCompatibleEmbedder } from '../embedding/openai-compatible/openai-compatible-embedder.js';
import { createRateLimitedFetch } from '../embedding/test-support/rate-limited-fetch.js';
import { openSqliteJournal } from '../journal/sqlite/sqlite-journal.js';
import { createLogger } from '../logging/logger.js';
import { createServiceMetrics } from '../metrics/service-metrics.js';
import { createCollectionGuard } from '../store/collection-guard.js';
import { createMemoryPointStore } from '../store/test-support/memory-point-store.js';
import { ChunkWriter } from './chunk-writer.js';

test('one pass over a one-request-per-window endpoint, concurrency 4: all ten chunks stored', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mp-writer-429-'));
  const journal = openSqliteJournal(dir);
  const endpoint = createRateLimitedFetch(40, 16);
  const embedder = new OpenAiCompatibleEmbedder(
    {
      provider: 'openai-compatible',
      baseUrl: 'http://embed.test/v1',
      model: 'm',
      batchSize: 1,
      concurrency: 4,
      timeoutMs: 5_000,
      maxRetries: 5,
      maxInputTokens: 8191,
    },
    { fetch: endpoint.fetch },
  );
  const store = createMemoryPointStore();
  const writer = new ChunkWriter({
    bots: { mythos: testBot('mythos', { chunk: { minChars: 60, maxChars: 100, idleMs: 1_000 } }) },
    journal,
    store,
    embedder,
    guard: createCollectionGuard(store, journal),
    metrics: createServiceMetrics(() => journal.queueDepth(), { processMetrics: false }),
    logger: createLogger({ level: 'silent' }),
  });
  try {
    const now = Date.now();
    await journal.recordMessages(
      Array.from({ length: 10 }, (_, i) => ({
        bot: 'mythos',
        source: 'discord',
        messageId: `m${i}`,
        speakerKind: 'user' as const,
        text: `message ${i} ${'x'.repeat(70)}`,
        ts: now,
        channelId: `c${i}`,
      })),
      now,
    );
    await writer.runOnce();
    assert.equal((await journal.queueDepth()).storedChunks, 10);
  } finally {
    await writer.stop();
    await journal.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
