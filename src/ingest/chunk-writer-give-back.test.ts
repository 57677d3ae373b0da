/**
 * @module Review s25 finding 4 as it applies without the pipeline: a write that fails and whose claims then cannot be
 * given back (the journal went down in between) fails the pass with the write's error, and the give-back's error is
 * logged, not lost.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { testBot } from '../config/test-support/test-bot.js';
import { HashingEmbedder } from '../embedding/hashing/hashing-embedder.js';
import type { Journal } from '../journal/journal.js';
import { openSqliteJournal } from '../journal/sqlite/sqlite-journal.js';
import { createLogger } from '../logging/logger.js';
import { createServiceMetrics } from '../metrics/service-metrics.js';
import { createCollectionGuard } from '../store/collection-guard.js';
import { createMemoryPointStore } from '../store/test-support/memory-point-store.js';
import { withStoreHooks } from '../store/test-support/with-store-hooks.js';
import { ChunkWriter } from './chunk-writer.js';

const T0 = 1_764_547_200_000;

describe('a failed write whose claims cannot be given back', () => {
  let dir: string;
  let journal: Journal;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'chunk-writer-give-back-'));
    journal = openSqliteJournal(dir);
    const text = `m1 something worth remembering ${'x'.repeat(40)}`;
    await journal.recordMessages(
      [{ bot: 'mythos', source: 'discord', messageId: 'm1', speakerKind: 'user', text, ts: T0 }],
      T0,
    );
  });
  afterEach(async () => {
    await journal.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the pass fails with the write’s error; the give-back’s is logged', async () => {
    let down = false;
    // The journal as the writer sees it: once down, recording the failure and giving the claims back both fail.
    const chunks = new Proxy(journal.chunks, {
      get: (target, property, receiver) =>
        property === 'releaseChunkClaims' && down
          ? () => Promise.reject(new Error('could not give the claims back'))
          : Reflect.get(target, property, receiver),
    });
    const view = new Proxy(journal, {
      get: (target, property, receiver) => {
        if (property === 'chunks') return chunks;
        if (property === 'transaction' && down)
          return () => Promise.reject(new Error('could not record the failure'));
        const value = Reflect.get(target, property, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const store = withStoreHooks(createMemoryPointStore(), {
      beforeCall: ({ method }) => {
        if (method !== 'upsertPoints') return;
        down = true;
        throw new Error('the store refused the upsert');
      },
    });
    const lines = new PassThrough();
    let logged = '';
    lines.on('data', (data: Buffer) => {
      logged += data.toString();
    });
    const writer = new ChunkWriter({
      bots: { mythos: testBot('mythos', { chunk: { minChars: 60, maxChars: 100, idleMs: 1_000 } }) },
      journal: view,
      store,
      embedder: new HashingEmbedder({ dimensions: 16 }),
      guard: createCollectionGuard(store, journal),
      metrics: createServiceMetrics(() => journal.queueDepth(), { processMetrics: false }),
      logger: createLogger({ level: 'warn', format: 'json', destination: lines }),
      now: () => T0 + 5_000,
      holder: 'A',
    });
    await assert.rejects(writer.runOnce({ flush: true }), /could not record the failure/);
    await new Promise((resolve) => setImmediate(resolve));
    assert.match(logged, /could not give the claims back/);
  });
});
