/** @module Recall that finds its collection deleted answers "nothing" at once, whatever its parts' clean-up does. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { testBot } from '../config/test-support/test-bot.js';
import { HashingEmbedder } from '../embedding/hashing/hashing-embedder.js';
import { StoreError } from '../errors/memory-pool-error.js';
import { openSqliteJournal } from '../journal/sqlite/sqlite-journal.js';
import { createPartsGuard } from '../parts/parts-guard.js';
import { createCollectionGuard } from '../store/collection-guard.js';
import { createMemoryPointStore } from '../store/test-support/memory-point-store.js';
import { withStoreHooks } from '../store/test-support/with-store-hooks.js';
import { retrieveMemories } from './retrieve-memories.js';

/** The parts clean-up behind recall either fails (a store hiccup) or never ends (a slow delete). */
for (const cleanUp of ['fails', 'hangs'] as const) {
  test(`recall of a deleted collection returns no hits when deleting its parts ${cleanUp}`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'recall-gone-'));
    const journal = openSqliteJournal(dir);
    try {
      const base = createMemoryPointStore();
      await base.createCollection('mem_mythos', 64);
      await base.createHybridCollection('mem_mythos__parts', 64);
      await journal.partsIndexes.recordStarted('mem_mythos', true, Date.now());
      const store = withStoreHooks(base, {
        beforeCall: async ({ method }) => {
          if (method !== 'deleteCollection') return;
          if (cleanUp === 'hangs') await new Promise(() => undefined);
          throw new StoreError('store_unavailable', 'Qdrant is restarting', { retryable: true });
        },
      });
      const warned: unknown[] = [];
      const deps = {
        store,
        embedder: new HashingEmbedder({ dimensions: 64 }),
        guard: createCollectionGuard(store, journal),
        partsGuard: createPartsGuard(store, journal),
        forgottenIds: async () => new Set<string>(),
        logger: { warn: (...args: unknown[]) => void warned.push(args) },
      };
      const request = { bot: 'mythos', query_text: 'Where does Anna live?' };
      await retrieveMemories(deps, testBot('mythos'), request); // the guard has seen the collection
      await base.deleteCollection('mem_mythos'); // SillyTavern's "Delete All Memories"
      const recalled = await retrieveMemories(deps, testBot('mythos'), request);
      assert.deepEqual(recalled, { hits: [], formatted: '' });
      if (cleanUp === 'fails') {
        for (let i = 0; i < 50 && warned.length === 0; i++) await new Promise((r) => setImmediate(r));
        assert.equal(warned.length, 1, 'the failed clean-up is logged');
      }
    } finally {
      await journal.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
