/** @module A reembed or a reindex of a collection runs once at a time, from any machine: its lease says who runs it. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { testBot } from '../config/test-support/test-bot.js';
import { isMemoryPoolError } from '../errors/memory-pool-error.js';
import type { Journal } from '../journal/journal.js';
import { openSqliteJournal } from '../journal/sqlite/sqlite-journal.js';
import { type ReindexDeps, reindexParts } from '../parts/reindex-parts.js';
import { type ReembedDeps, reembedCollection } from './reembed-collection.js';

describe('a pass another process runs', () => {
  let dir: string;
  let journal: Journal;
  const bot = testBot('mythos');
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'memory-pool-pass-lease-'));
    journal = openSqliteJournal(dir);
  });
  afterEach(async () => {
    await journal.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A 409 naming the holder; the pass never reached its store or embedder (the stand-ins have none). */
  const refusedWhileHeld = (holder: string) => (error: unknown) =>
    isMemoryPoolError(error) &&
    error.status === 409 &&
    error.field === '--bot' &&
    error.message.includes(holder);

  test('a reembed of a bot whose collection another reembed holds is refused with 409, naming the holder', async () => {
    await journal.leases.acquire('reembed:mem_mythos', 'host-b:4242:abcd', 60_000, Date.now());
    const deps = { journal, bots: { mythos: bot } } as unknown as ReembedDeps;
    await assert.rejects(
      reembedCollection(deps, { bot, action: 'build', dryRun: false, serveRunning: false }),
      refusedWhileHeld('host-b:4242:abcd'),
    );
  });

  test('a reindex of a collection another reindex holds is refused with 409, naming the holder', async () => {
    await journal.leases.acquire('reindex:mem_mythos', 'host-b:4242:abcd', 60_000, Date.now());
    const deps = { journal, config: { bots: { mythos: bot } } } as unknown as ReindexDeps;
    await assert.rejects(reindexParts(deps, 'mythos'), refusedWhileHeld('host-b:4242:abcd'));
  });
});
