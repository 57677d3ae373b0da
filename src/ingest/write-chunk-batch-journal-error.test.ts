/**
 * @module Review s25 finding 3: a journal error in the claim check right before a store write is no store outage:
 * the outage recovery is not told the store failed (it would probe a store that is fine and blame it).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { testBot } from '../config/test-support/test-bot.js';
import { HashingEmbedder } from '../embedding/hashing/hashing-embedder.js';
import { JournalError } from '../errors/memory-pool-error.js';
import { openSqliteJournal } from '../journal/sqlite/sqlite-journal.js';
import { createLogger } from '../logging/logger.js';
import { createServiceMetrics } from '../metrics/service-metrics.js';
import { createCollectionGuard } from '../store/collection-guard.js';
import { createMemoryPointStore } from '../store/test-support/memory-point-store.js';
import { planReadyChunks } from './plan-ready-chunks.js';
import { writeChunkBatch } from './write-chunk-batch.js';

const T0 = 1_764_547_200_000;

test('a journal error in the claim check is recorded as a failure, not as a store outage', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'write-chunk-batch-journal-error-'));
  const journal = openSqliteJournal(dir);
  try {
    const bots = { mythos: testBot('mythos', { chunk: { minChars: 60, maxChars: 100, idleMs: 1_000 } }) };
    const text = `m1 the kept words about gardening ${'x'.repeat(40)}`;
    await journal.recordMessages(
      [{ bot: 'mythos', source: 'discord', messageId: 'm1', speakerKind: 'user', text, ts: T0 }],
      T0,
    );
    await planReadyChunks(journal, bots, T0 + 5_000, true, 64, 'A');
    const chunks = await journal.chunks.claimDueChunks('A', T0 + 5_000, 10, 30_000);
    assert.equal(chunks.length, 1);
    const store = createMemoryPointStore();
    const failed: string[] = [];
    await writeChunkBatch(
      {
        bots,
        journal,
        store,
        embedder: new HashingEmbedder({ dimensions: 16 }),
        guard: createCollectionGuard(store, journal),
        metrics: createServiceMetrics(() => journal.queueDepth(), { processMetrics: false }),
        logger: createLogger({ level: 'silent' }),
        now: () => T0 + 5_000,
        claims: {
          stillHeld: () => Promise.reject(new JournalError('the connection to the journal was lost')),
        },
        recovery: {
          failed: (dependency) => void failed.push(dependency),
          succeeded: async () => {},
        },
      },
      chunks,
    );
    assert.deepEqual(failed, [], 'no store outage recorded for a journal error');
    assert.equal(store.heldPoints('mem_mythos').length, 0, 'nothing stored without the check');
    assert.equal((await journal.chunks.storedChunks('mythos')).length, 0);
  } finally {
    await journal.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
