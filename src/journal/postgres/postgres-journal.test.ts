import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { JournalError } from '../../errors/memory-pool-error.js';
import type { Journal } from '../journal.js';
import { describeJournalContract } from '../test-support/journal-contract.js';
import { skipWithoutPostgres, startPostgres, type TestPostgres } from '../test-support/start-postgres.js';
import { openPostgresJournal } from './postgres-journal.js';

if (skipWithoutPostgres === false) {
  describeJournalContract('Postgres (two pools to one database)', async () => {
    const server = await startPostgres();
    const url = await server.createDatabase('journal_contract');
    return {
      connect: () => openPostgresJournal(url),
      close: () => server.stop(),
    };
  });
}

// Only Postgres has two writers at once: these cases hold one replica's transaction open while the other works.
describe('Postgres journal: replicas at the same moment', { skip: skipWithoutPostgres }, () => {
  let server: TestPostgres;
  let a: Journal;
  let b: Journal;
  let url: string;
  before(async () => {
    server = await startPostgres();
    url = await server.createDatabase('replicas');
    a = await openPostgresJournal(url);
    b = await openPostgresJournal(url);
  });
  after(async () => {
    await a?.close();
    await b?.close();
    await server?.stop();
  });

  test('a claim uncommitted on one replica is skipped by the other, not waited for or doubled', {
    timeout: 20_000,
  }, async () => {
    await a.recordMessages(
      ['m1', 'm2', 'm3', 'm4'].map((id) => ({
        bot: 'b',
        source: 'api',
        messageId: id,
        speakerKind: 'user',
        text: id,
        ts: 1,
      })),
      1,
    );
    for (const [i, id] of ['m1', 'm2', 'm3', 'm4'].entries()) {
      await a.chunks.planChunk(
        { chunkId: `c${i}`, bot: 'b', collection: 'col', source: 'api', messageIds: [id] },
        i,
      );
    }
    // B's claim runs (and is awaited) inside A's open transaction: had it to wait for A's row locks, this would never end.
    const [fromA, fromB] = await a.transaction(async (tx) => {
      const mine = await tx.chunks.claimDueChunks('A', 100, 2, 60_000);
      const theirs = await b.chunks.claimDueChunks('B', 100, 4, 60_000);
      return [mine.map((c) => c.chunkId), theirs.map((c) => c.chunkId)];
    });
    assert.deepEqual(fromA, ['c0', 'c1']);
    assert.deepEqual(fromB, ['c2', 'c3']);
    assert.deepEqual(await b.chunks.claimDueChunks('B', 200, 4, 60_000), []);
  });

  test('a save waits for a forget of the same id that is still open, then sees its tombstone', {
    timeout: 20_000,
  }, async () => {
    const message = {
      bot: 'f',
      source: 'api',
      messageId: 'x1',
      speakerKind: 'user',
      text: 'secret',
      ts: 1,
    } as const;
    let saved: Promise<unknown> | undefined;
    await b.transaction(async (tx) => {
      await tx.forgetting.forgetMessages('f', [{ id: 'x1' }], 1);
      saved = a.recordMessages([message], 2); // blocked on the id's lock until the forget commits
      await new Promise((resolve) => setTimeout(resolve, 100));
    });
    assert.deepEqual(await saved, { accepted: 0, duplicates: 0, edited: 0, forgotten: 1 });
    assert.deepEqual((await a.botCounts('f')).bySource, {});
  });

  test('a server ending the connection of an open transaction rejects it as JournalError; the process lives on', {
    timeout: 20_000,
  }, async () => {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const saved = a.transaction(async (tx) => {
        await tx.recordMessages(
          [{ bot: 't', source: 'api', messageId: 'x', speakerKind: 'user', text: 'hi', ts: 1 }],
          1,
        );
        // A failover or an admin ends this backend while the work awaits something else (an embedder, a store).
        await admin.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
           WHERE datname = current_database() AND state = 'idle in transaction' AND pid <> pg_backend_pid()`,
        );
        await new Promise((resolve) => setTimeout(resolve, 300));
      });
      await assert.rejects(saved, (error) => error instanceof JournalError && error.retryable === true);
      assert.deepEqual((await a.botCounts('t')).bySource, {});
      await a.recordMessages(
        [{ bot: 't', source: 'api', messageId: 'x', speakerKind: 'user', text: 'hi', ts: 1 }],
        2,
      );
      assert.deepEqual((await a.botCounts('t')).bySource, { api: 1 });
    } finally {
      await admin.end();
    }
  });
});
