/**
 * @module A pass leaves a request younger than the people cache's life for a later pass: a writer whose cache
 * predates the change would rewrite the queued chunks with the old name, and the request would be gone.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openSqliteJournal } from '../journal/sqlite/sqlite-journal.js';
import type { Logger } from '../logging/logger.js';
import { PEOPLE_CACHE_MS } from './people-names.js';
import { createRenameRunner } from './rename-runner.js';
import { RENAME_MIN_AGE_MS, runRenamePass } from './run-rename-pass.js';

const ANNA = { id: 'p1', name: 'Anna', accounts: [{ kind: 'user' as const, value: 'discord:1234' }] };

async function withJournal(
  body: (journal: ReturnType<typeof openSqliteJournal>) => Promise<void>,
): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'memory-pool-min-age-'));
  const journal = openSqliteJournal(dir);
  try {
    await body(journal);
  } finally {
    await journal.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a pass started within the people cache life of a change keeps its request for the next pass', async () => {
  await withJournal(async (journal) => {
    const changedAt = 1_000_000;
    await journal.people.create('b', ANNA, changedAt);
    assert.ok(RENAME_MIN_AGE_MS > PEOPLE_CACHE_MS, 'the wait covers the whole cache life');
    const early = await runRenamePass(journal, 'b', {
      holder: 'h',
      leaseMs: 60_000,
      now: () => changedAt + 478,
    });
    assert.deepEqual(early, { accounts: 0, chunks: 0, tooYoung: 1 });
    assert.equal((await journal.renames.requests('b')).length, 1, 'the request is still waiting');
    const later = changedAt + RENAME_MIN_AGE_MS;
    const done = await runRenamePass(journal, 'b', { holder: 'h', leaseMs: 60_000, now: () => later });
    assert.deepEqual(done, { accounts: 1, chunks: 0, tooYoung: 0 });
    assert.deepEqual(await journal.renames.requests('b'), []);
  });
});

test('the runner runs the pass again for a request it found too young, once it is old enough', async () => {
  await withJournal(async (journal) => {
    const passes: { at: number; accounts: unknown }[] = [];
    const logger = {
      info: (fields: Record<string, unknown>) => passes.push({ at: Date.now(), accounts: fields.accounts }),
      warn: () => undefined,
    } as unknown as Logger;
    // No settle wait at all: only the age check keeps the pass from taking the request at once.
    const runner = createRenameRunner({
      journal,
      wakeWriter: () => undefined,
      logger,
      settleMs: 0,
      minAgeMs: 150,
    });
    try {
      const changedAt = Date.now();
      await journal.people.create('b', ANNA, changedAt);
      runner.schedule('b');
      await runner.settled();
      assert.deepEqual(await journal.renames.requests('b'), [], 'the request was taken in the end');
      assert.equal(passes.length, 1);
      assert.ok(passes[0]!.at - changedAt >= 150, `taken ${passes[0]!.at - changedAt} ms after the change`);
    } finally {
      await runner.close();
    }
  });
});
