import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { HashingEmbedder } from '../embedding/hashing/hashing-embedder.js';
import { StoreError } from '../errors/memory-pool-error.js';
import type { Journal } from '../journal/journal.js';
import { openSqliteJournal } from '../journal/sqlite/sqlite-journal.js';
import { createLogger } from '../logging/logger.js';
import { createServiceMetrics } from '../metrics/service-metrics.js';
import { testBot } from '../config/test-support/test-bot.js';
import type { PointStore } from '../store/point-store.js';
import { createMemoryPointStore } from '../store/test-support/memory-point-store.js';
import { ChunkWriter } from './chunk-writer.js';
import { createCollectionGuard } from '../store/collection-guard.js';

/** The in-memory store, switched off like a Qdrant that went down; counts its calls and upserts. */
function createFlakyStore() {
  const state = { down: false, upserts: 0, calls: 0 };
  const store = createMemoryPointStore({
    beforeCall: ({ method }) => {
      state.calls += 1;
      if (state.down) throw new StoreError('store_unavailable', 'Qdrant is down', { retryable: true });
      if (method === 'upsertPoints') state.upserts += 1;
    },
  });
  return { store, points: () => store.heldPoints('mem_mythos'), state };
}

describe('chunk writer', () => {
  let dir: string;
  let journal: Journal;
  let clock: number;
  const bots = { mythos: testBot('mythos', { chunk: { minChars: 60, maxChars: 100, idleMs: 1_000 } }) };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'chunk-writer-'));
    journal = openSqliteJournal(dir);
    clock = 1_764_547_200_000;
  });
  afterEach(async () => {
    await journal.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function createWriter(store: PointStore) {
    return new ChunkWriter({
      bots,
      journal,
      store,
      embedder: new HashingEmbedder({ dimensions: 16 }),
      guard: createCollectionGuard(store, journal),
      metrics: createServiceMetrics(() => journal.queueDepth(), { processMetrics: false }),
      logger: createLogger({ level: 'silent' }),
      now: () => clock,
    });
  }

  const message = (id: string, text: string, ts: number) =>
    ({
      bot: 'mythos',
      source: 'discord',
      messageId: id,
      speakerKind: 'user',
      text,
      ts,
      channelId: 'c1',
    }) as const;

  test('cuts at minChars, keeps the short rest pending until the conversation is idle', async () => {
    const { store, points } = createFlakyStore();
    const writer = createWriter(store);
    await journal.recordMessages(
      [
        message('1', 'a'.repeat(40), clock),
        message('2', 'b'.repeat(40), clock + 1),
        message('3', 'short', clock + 2),
      ],
      clock,
    );
    await writer.runOnce();
    assert.equal(points().length, 1, 'the first two messages reach minChars and are written');
    assert.equal(points()[0]!.payload.messageIds, '1,2');
    assert.equal((await journal.queueDepth()).pendingMessages, 1);

    clock += 999;
    await writer.runOnce();
    assert.equal(points().length, 1, 'not idle yet');
    clock += 1;
    await writer.runOnce();
    assert.equal(points().length, 2, 'idle: the rest is flushed');
    assert.equal((await journal.queueDepth()).pendingMessages, 0);
  });

  test('a store outage delays the write with backoff; nothing is lost and no point is duplicated', async () => {
    const { store, points, state } = createFlakyStore();
    const writer = createWriter(store);
    await journal.recordMessages([message('1', 'x'.repeat(70), clock)], clock);
    state.down = true;
    await writer.runOnce();
    assert.equal(points().length, 0);
    assert.deepEqual(
      {
        planned: (await journal.queueDepth()).plannedChunks,
        pending: (await journal.queueDepth()).pendingMessages,
      },
      { planned: 1, pending: 0 },
      'the chunk is planned and waits in the journal',
    );
    state.down = false;
    await writer.runOnce();
    assert.equal(points().length, 0, 'the retry waits for its backoff');
    clock += 2_000;
    await writer.runOnce();
    assert.equal(points().length, 1);
    assert.equal((await journal.queueDepth()).plannedChunks, 0);
    await writer.runOnce();
    assert.equal(state.upserts, 1, 'a stored chunk is not written again');
  });

  test('when the store answers again, the chunks its outage left in backoff are written within a second', async () => {
    const { store, points, state } = createFlakyStore();
    const writer = createWriter(store);
    for (let i = 0; i < 3; i++) {
      await journal.recordMessages(
        [{ ...message(`m${i}`, 'x'.repeat(70), clock), channelId: `c${i}` }],
        clock,
      );
    }
    state.down = true;
    // A minute down: every retry fails, and the backoff grows to tens of seconds.
    const until = clock + 60_000;
    while (clock < until) {
      await writer.runOnce();
      clock += 1_000;
    }
    assert.equal(points().length, 0);
    const callsWhileDown = state.calls;
    assert.ok(
      callsWhileDown < 150,
      `${callsWhileDown} store calls in a minute: the writer hammered the store`,
    );
    state.down = false;
    clock += 1_000;
    await writer.runOnce();
    assert.equal(points().length, 3, 'the backlog waited out its backoff instead of the outage');
    assert.equal((await journal.queueDepth()).plannedChunks, 0);
  });

  test('a chunk that cannot be built fails alone; the other chunks of the batch are stored', async () => {
    const { store, points } = createFlakyStore();
    const writer = createWriter(store);
    // Past the largest date JavaScript can format: /save refuses this, but older journals may hold anything.
    await journal.recordMessages(
      [{ ...message('bad', 'x'.repeat(70), clock), ts: 9e15, channelId: 'c-bad' }],
      clock,
    );
    await journal.recordMessages([{ ...message('good', 'y'.repeat(70), clock), channelId: 'c-good' }], clock);
    await writer.runOnce();
    assert.deepEqual(
      points().map((p) => p.payload.messageIds),
      ['good'],
    );
    assert.equal((await journal.queueDepth()).plannedChunks, 1, 'the bad chunk waits, retried later');
  });

  test('a collection of another dimension is refused, never written', async () => {
    const { store, points } = createFlakyStore();
    await store.createCollection('mem_mythos', 3072);
    const writer = createWriter(store);
    await journal.recordMessages([message('1', 'y'.repeat(70), clock)], clock);
    await writer.runOnce();
    assert.equal(points().length, 0);
    assert.equal((await journal.queueDepth()).plannedChunks, 1, 'kept for when the config is fixed');
  });

  test('a pass commits its bookkeeping once per step, not once per chunk (each commit is an fsync)', async () => {
    const { store, points } = createFlakyStore();
    const writer = createWriter(store);
    const chunks = 40;
    for (let i = 0; i < chunks; i++) {
      await journal.recordMessages(
        [{ ...message(`m${i}`, 'z'.repeat(70), clock), channelId: `c${i}` }],
        clock,
      );
    }
    // A second connection reads the write-ahead log: every commit appends at least one frame to it.
    const reader = new BetterSqlite3(join(dir, 'journal.sqlite'));
    try {
      reader.pragma('wal_checkpoint(TRUNCATE)');
      await writer.runOnce();
      const [{ log }] = reader.pragma('wal_checkpoint(PASSIVE)') as [{ log: number }];
      assert.equal(points().length, chunks);
      assert.equal((await journal.queueDepth()).plannedChunks, 0);
      assert.ok(
        log < chunks,
        `${log} log frames for ${chunks} chunks planned and stored: a commit per chunk`,
      );
    } finally {
      reader.close();
    }
  });
});
