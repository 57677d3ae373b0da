/**
 * @module The chunk writer over the OpenAI-compatible client sending a batch's requests side by side: a request
 * failing mid-batch stores nothing of the batch and loses nothing (every chunk stays due), and once the endpoint
 * answers each point gets the vector of its own text.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { testBot } from '../config/test-support/test-bot.js';
import { OpenAiCompatibleEmbedder } from '../embedding/openai-compatible/openai-compatible-embedder.js';
import {
  type FakeOpenAiServer,
  startFakeOpenAiServer,
} from '../embedding/test-support/fake-openai-server.js';
import { openSqliteJournal } from '../journal/sqlite/sqlite-journal.js';
import { createLogger } from '../logging/logger.js';
import { createServiceMetrics } from '../metrics/service-metrics.js';
import { createCollectionGuard } from '../store/collection-guard.js';
import { createMemoryPointStore } from '../store/test-support/memory-point-store.js';
import { ChunkWriter } from './chunk-writer.js';

const START = 1_764_547_200_000;
let server: FakeOpenAiServer;
before(async () => {
  server = await startFakeOpenAiServer({ dimensions: 16, shuffleOrder: true });
});
after(() => server.close());

test('a request failing mid-batch loses nothing, and the retry puts each vector on its own chunk', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'chunk-writer-remote-'));
  const journal = openSqliteJournal(dir);
  const clock = { now: START };
  // Two texts a request, four requests at once, no retry inside the call: the failure reaches the writer.
  const embedder = new OpenAiCompatibleEmbedder({
    provider: 'openai-compatible',
    baseUrl: server.baseUrl,
    model: 'fake-embedding-model',
    batchSize: 2,
    concurrency: 4,
    timeoutMs: 5_000,
    maxRetries: 0,
    maxInputTokens: 8191,
  });
  const store = createMemoryPointStore();
  const writer = new ChunkWriter({
    bots: { mythos: testBot('mythos', { chunk: { minChars: 60, maxChars: 100, idleMs: 1_000 } }) },
    journal,
    store,
    embedder,
    guard: createCollectionGuard(store, journal),
    metrics: createServiceMetrics(() => journal.queueDepth(), { processMetrics: false }),
    logger: createLogger({ level: 'silent' }),
    now: () => clock.now,
  });
  try {
    // Ten chunks (each message fills one): one write batch, five requests.
    const messages = Array.from({ length: 10 }, (_, i) => ({
      bot: 'mythos',
      source: 'discord',
      messageId: `m${i}`,
      speakerKind: 'user' as const,
      text: `${i} the lantern by the harbour ${'x'.repeat(60)}`,
      ts: START,
      channelId: `c${i}`,
    }));
    await journal.recordMessages(messages, START);
    server.failNext({ kind: 'status', status: 500 });
    await writer.runOnce();
    assert.equal(store.heldPoints('mem_mythos').length, 0, 'nothing of the failed batch was stored');
    assert.deepEqual(await journal.queueDepth(), { pendingMessages: 0, plannedChunks: 10, storedChunks: 0 });

    clock.now += 10 * 60_000; // past the longest backoff
    await writer.runOnce();
    const points = store.heldPoints('mem_mythos');
    assert.equal(points.length, 10);
    for (const point of points) {
      assert.deepEqual(point.vectors[''], [...server.vectorFor(String(point.payload.text))]);
    }
    assert.deepEqual(await journal.queueDepth(), { pendingMessages: 0, plannedChunks: 0, storedChunks: 10 });
  } finally {
    await writer.stop();
    await journal.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
