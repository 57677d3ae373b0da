/**
 * @module Review s25 finding 1: a forget whose rewrite another replica claimed first (it took the re-planned chunk
 * between the forget's deletes and its rewrite) waits for that write, and answers `claimed` when the wait runs
 * out instead of counting a rewrite recall cannot see yet. Replicas A and B share one journal and one store.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { testBot } from '../config/test-support/test-bot.js';
import { HashingEmbedder } from '../embedding/hashing/hashing-embedder.js';
import { ChunkWriter } from '../ingest/chunk-writer.js';
import type { Journal } from '../journal/journal.js';
import { openSqliteJournal } from '../journal/sqlite/sqlite-journal.js';
import { createLogger } from '../logging/logger.js';
import { createServiceMetrics } from '../metrics/service-metrics.js';
import { createCollectionGuard } from '../store/collection-guard.js';
import { createMemoryPointStore } from '../store/test-support/memory-point-store.js';
import { forgetInStore, type StoreForgetResult } from './forget-in-store.js';

const T0 = 1_764_547_200_000;
const clock = T0 + 5_000; // fixed: B's claim stays live for as long as the test wants
const said = (messageId: string, text: string, ts: number) => ({
  bot: 'mythos',
  source: 'discord',
  messageId,
  speakerKind: 'user' as const,
  text,
  ts,
});

describe('a forget whose rewrite another replica claimed first', () => {
  let dir: string;
  let journal: Journal;
  const shared = createMemoryPointStore();
  const bots = { mythos: testBot('mythos', { chunk: { minChars: 300, maxChars: 600, idleMs: 1_000 } }) };

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'forget-rewrite-claimed-'));
    journal = openSqliteJournal(dir);
    await shared.deleteCollection('mem_mythos');
    await journal.recordMessages(
      [
        said('m1', `m1 my secret password is swordfish ${'x'.repeat(40)}`, T0),
        said('m2', `m2 the kept words about gardening ${'z'.repeat(40)}`, T0 + 1),
      ],
      T0,
    );
  });
  afterEach(async () => {
    await journal.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const createWriter = (holder: string) =>
    new ChunkWriter({
      bots,
      journal,
      store: shared,
      embedder: new HashingEmbedder({ dimensions: 16 }),
      guard: createCollectionGuard(shared, journal),
      metrics: createServiceMetrics(() => journal.queueDepth(), { processMetrics: false }),
      logger: createLogger({ level: 'silent' }),
      now: () => clock,
      holder,
    });
  const heldTexts = () => shared.heldPoints('mem_mythos').map((p) => String(p.payload.text));

  /** Forgets m1 on A; B claims the re-planned chunk right after A's deletes, then runs `meanwhile`. */
  async function forgetWhileBHolds(claimWaitMs: number, meanwhile: (chunkIds: string[]) => void) {
    const a = createWriter('A');
    await a.runOnce({ flush: true });
    assert.equal(heldTexts().length, 1, 'one chunk holds both messages');
    const forgot = await journal.forgetting.forgetMessages(
      'mythos',
      [{ id: 'm1', source: 'discord' }],
      clock,
    );
    const parsed = { kind: 'journal', selector: { kind: 'message_ids', messageIds: ['m1'] } } as const;
    return a.runExclusive(async (ops): Promise<StoreForgetResult> => {
      const racing = {
        deleteDueChunks: async () => {
          await ops.deleteDueChunks();
          const taken = await journal.chunks.claimDueChunks('B', clock, 10, 30_000);
          if (taken.length > 0) meanwhile(taken.map((c) => c.chunkId));
        },
        writeChunks: ops.writeChunks,
      };
      return forgetInStore(
        { journal, store: shared, claimWaitMs },
        racing,
        { bot: 'mythos', collection: 'mem_mythos' },
        parsed,
        forgot,
        undefined,
      );
    });
  }

  test('B never finishes within the wait: the answer says claimed, not a rewrite done', async () => {
    let took = 0;
    const result = await forgetWhileBHolds(200, () => {
      took += 1;
    });
    assert.equal(took, 1, 'B took the re-planned chunk');
    assert.ok(!heldTexts().some((t) => t.includes('gardening')), 'the kept message waits for B');
    assert.equal(result.claimed, true, 'the answer does not count the rewrite as seen by recall');
  });

  test('B finishes during the wait: the answer comes after its write, and recall sees the kept message', async () => {
    const b = createWriter('B');
    let written: Promise<unknown> | undefined;
    const result = await forgetWhileBHolds(5_000, (chunkIds) => {
      // B's write of the chunk it claimed lands a little later (its embedder and upsert).
      written = sleep(300).then(async () => {
        await journal.chunks.releaseChunkClaims('B', chunkIds);
        await b.runExclusive((ops) => ops.writeChunks(chunkIds));
      });
    });
    assert.ok(
      heldTexts().some((t) => t.includes('gardening')),
      'kept message rewritten before the answer',
    );
    assert.ok(!heldTexts().some((t) => t.includes('swordfish')));
    assert.equal(result.claimed, false);
    await written;
    await b.stop();
  });
});
