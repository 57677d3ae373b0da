/** @module The chunk writer among replicas: chunks another holder claimed and conversations it plans are left to it. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { testBot } from '../config/test-support/test-bot.js';
import { HashingEmbedder } from '../embedding/hashing/hashing-embedder.js';
import { StoreError } from '../errors/memory-pool-error.js';
import type { Journal } from '../journal/journal.js';
import { openSqliteJournal } from '../journal/sqlite/sqlite-journal.js';
import { createLogger } from '../logging/logger.js';
import { createServiceMetrics } from '../metrics/service-metrics.js';
import { createCollectionGuard } from '../store/collection-guard.js';
import { createMemoryPointStore } from '../store/test-support/memory-point-store.js';
import { ChunkWriter } from './chunk-writer.js';
import { planLeaseName, planReadyChunks } from './plan-ready-chunks.js';

describe('chunk writer among replicas', () => {
  let dir: string;
  let journal: Journal;
  let clock: number;
  const state = { down: false };
  const bots = { mythos: testBot('mythos', { chunk: { minChars: 60, maxChars: 100, idleMs: 1_000 } }) };
  const store = () =>
    createMemoryPointStore({
      beforeCall: () => {
        if (state.down) throw new StoreError('store_unavailable', 'Qdrant is down', { retryable: true });
      },
    });

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'chunk-writer-claims-'));
    journal = openSqliteJournal(dir);
    clock = 1_764_547_200_000;
    state.down = false;
  });
  afterEach(async () => {
    await journal.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const createWriter = (points: ReturnType<typeof store>) =>
    new ChunkWriter({
      bots,
      journal,
      store: points,
      embedder: new HashingEmbedder({ dimensions: 16 }),
      guard: createCollectionGuard(points, journal),
      metrics: createServiceMetrics(() => journal.queueDepth(), { processMetrics: false }),
      logger: createLogger({ level: 'silent' }),
      now: () => clock,
      holder: 'this-replica',
    });

  /** One message long enough to make a chunk of its own. */
  const recordOne = (id: string) =>
    journal.recordMessages(
      [
        {
          bot: 'mythos',
          source: 'discord',
          messageId: id,
          speakerKind: 'user',
          text: 'x'.repeat(70),
          ts: clock,
          channelId: 'c1',
        },
      ],
      clock,
    );

  test('a due chunk another replica has claimed is left to it, and written here once its claim expires', async () => {
    const points = store();
    const writer = createWriter(points);
    await recordOne('1');
    await planReadyChunks(journal, bots, clock, false);
    assert.equal((await journal.chunks.claimDueChunks('other-replica', clock, 10, 30_000)).length, 1);
    await writer.runOnce();
    assert.equal(points.heldPoints('mem_mythos').length, 0, 'the other replica is writing it');
    // The other replica was killed mid-write: its claim runs out and this one finishes the chunk.
    clock += 30_001;
    await writer.runOnce();
    assert.equal(points.heldPoints('mem_mythos').length, 1);
    assert.equal((await journal.queueDepth()).plannedChunks, 0);
  });

  test('a write that failed gives its claim back at once, so any replica can retry it when it is due', async () => {
    const points = store();
    const writer = createWriter(points);
    await recordOne('1');
    state.down = true;
    await writer.runOnce();
    assert.equal((await journal.queueDepth()).plannedChunks, 1, 'planned, waiting for its retry');
    await journal.chunks.resetRetryDelays();
    assert.equal((await journal.chunks.claimDueChunks('other-replica', clock, 10, 30_000)).length, 1);
  });

  test('a conversation another replica is planning is left to it', async () => {
    await recordOne('1');
    const [conversation] = await journal.pendingConversations();
    const lease = planLeaseName('mythos', conversation!.conversation);
    await journal.leases.acquire(lease, 'other-replica', 60_000, clock);
    assert.equal((await planReadyChunks(journal, bots, clock, true)).planned, 0);
    assert.equal((await journal.queueDepth()).pendingMessages, 1);
    await journal.leases.release(lease, 'other-replica');
    assert.equal((await planReadyChunks(journal, bots, clock, true)).planned, 1);
    assert.equal(await journal.leases.holderOf(lease, clock), undefined, 'given back with the plan');
  });
});
