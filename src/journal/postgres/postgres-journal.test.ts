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
      // The cases pass fake times; served replicas use the server's clock (tested below).
      connect: () => openPostgresJournal(url, { callerClock: true }),
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

  test('an editing save and a forget of other messages in the same two chunks queue, never deadlock', {
    timeout: 20_000,
  }, async () => {
    // No reruns: a deadlock would surface as a failure instead of being hidden by a retry.
    const saver = await openPostgresJournal(url, { conflictRetries: 0 });
    const forgetter = await openPostgresJournal(url, { conflictRetries: 0 });
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    try {
      const msg = (id: string, text = `text ${id}`) =>
        ({ bot: 'd', source: 'api', messageId: id, speakerKind: 'user', text, ts: 1 }) as const;
      await saver.recordMessages(
        ['m1', 'm2', 'm3', 'm4'].map((id) => msg(id)),
        1,
      );
      // cB laid in the table before cA, so a scan meets them in the opposite order to their ids.
      await saver.chunks.planChunk(
        { chunkId: 'cB', bot: 'd', collection: 'x', source: 'api', messageIds: ['m2', 'm3'] },
        1,
      );
      await saver.chunks.planChunk(
        { chunkId: 'cA', bot: 'd', collection: 'x', source: 'api', messageIds: ['m1', 'm4'] },
        2,
      );
      await saver.chunks.markChunkStored('cB', 0, 3);
      await saver.chunks.markChunkStored('cA', 0, 3);
      // A third connection holds m2's row a moment, so the save is mid-way when the forget starts.
      await holder.query('BEGIN');
      await holder.query("SELECT 1 FROM messages WHERE bot = 'd' AND message_id = 'm2' FOR UPDATE");
      const saved = saver.recordMessages([msg('m1', 'edited 1'), msg('m2', 'edited 2')], 4);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const forgot = forgetter.forgetting.forgetMessages('d', [{ id: 'm3' }, { id: 'm4' }], 5);
      await new Promise((resolve) => setTimeout(resolve, 200));
      await holder.query('COMMIT');
      assert.equal((await saved).edited, 2);
      assert.deepEqual([...(await forgot).chunkIds].sort(), ['cA', 'cB']);
    } finally {
      await holder.end();
      await saver.close();
      await forgetter.close();
    }
  });

  test('a transaction Postgres aborts to break a deadlock is run again', { timeout: 30_000 }, async () => {
    const msg = (id: string, text: string) =>
      ({ bot: 'r', source: 'api', messageId: id, speakerKind: 'user', text, ts: 1 }) as const;
    await a.recordMessages([msg('m8', 'eight'), msg('m9', 'nine')], 1);
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    try {
      // The other side waits long before checking for a deadlock, so the journal's transaction is the one aborted.
      await other.query("SET deadlock_timeout = '20s'");
      await other.query('BEGIN');
      await other.query("SELECT 1 FROM messages WHERE bot = 'r' AND message_id = 'm9' FOR UPDATE");
      let runs = 0;
      let otherDone: Promise<unknown> | undefined;
      const result = await a.transaction(async (tx) => {
        runs += 1;
        await tx.recordMessages([msg('m8', `eight ${runs}`)], 2); // holds m8's row
        if (runs === 1) {
          otherDone = other
            .query("UPDATE messages SET arrived_at = 3 WHERE bot = 'r' AND message_id = 'm8'")
            .then(() => other.query('COMMIT'));
        }
        return tx.recordMessages([msg('m9', `nine ${runs}`)], 2); // waits for m9's row: a cycle on the first run
      });
      await otherDone;
      // At least once more: under load the retry itself may meet the other side's locks again, and is retried.
      assert.ok(runs >= 2, `the aborted transaction was run again (runs: ${runs})`);
      assert.equal(result.edited, 1);
    } finally {
      await other.end();
    }
  });

  test('leases and claims expire on the server clock: a replica whose clock runs ahead takes nothing early', {
    timeout: 20_000,
  }, async () => {
    const ahead = Date.now() + 3_600_000; // B's clock is an hour fast
    assert.equal(await a.leases.acquire('gateway', 'A', 60_000, Date.now()), true);
    assert.equal(await b.leases.acquire('gateway', 'B', 60_000, ahead), false);
    assert.equal(await b.leases.holderOf('gateway', ahead), 'A');
    await a.recordMessages(
      [{ bot: 'k', source: 'api', messageId: 'k1', speakerKind: 'user', text: 'k', ts: 1 }],
      1,
    );
    await a.chunks.planChunk(
      { chunkId: 'k-c1', bot: 'k', collection: 'x', source: 'api', messageIds: ['k1'] },
      1,
    );
    const mine = (list: { chunkId: string }[]) => list.filter((c) => c.chunkId === 'k-c1').length;
    assert.equal(mine(await a.chunks.claimDueChunks('A', Date.now(), 100, 60_000)), 1);
    assert.equal(mine(await b.chunks.claimDueChunks('B', ahead, 100, 60_000)), 0);
  });

  test('a replica starting on a migrated journal takes no table lock: it opens inside another’s open write', {
    timeout: 20_000,
  }, async () => {
    // A's transaction holds its write lock on messages; had C's start run DDL, it would wait for A forever.
    await a.transaction(async (tx) => {
      await tx.recordMessages(
        [{ bot: 's', source: 'api', messageId: 's1', speakerKind: 'user', text: 's', ts: 1 }],
        1,
      );
      const c = await openPostgresJournal(url);
      await c.close();
    });
    assert.deepEqual((await b.botCounts('s')).bySource, { api: 1 });
  });

  test('a journal at schema 1 is migrated to 4: the Discord, people and rename tables are added, its rows kept', {
    timeout: 20_000,
  }, async () => {
    const old = await server.createDatabase('schema_one');
    const first = await openPostgresJournal(old);
    await first.recordMessages(
      [{ bot: 'o', source: 'api', messageId: 'o1', speakerKind: 'user', text: 'o', ts: 1 }],
      1,
    );
    await first.close();
    // Back to what a schema-1 build left: no Discord or people tables, version 1.
    const client = new pg.Client({ connectionString: old });
    await client.connect();
    await client.query(
      `DROP TABLE discord_opt_outs, discord_channel_rules, discord_backfilled, discord_forgotten_before,
         discord_threads, discord_gateway, people, person_accounts, link_codes, link_failures, rename_requests,
         rename_chunks;
       UPDATE journal_schema SET version = 1`,
    );
    const upgraded = await openPostgresJournal(old);
    try {
      assert.equal(
        (await client.query<{ version: number }>('SELECT version FROM journal_schema')).rows[0]?.version,
        4,
      );
      assert.equal(await upgraded.discord.setOptedOut('o', 'u1', true, 1), true);
      assert.equal(await upgraded.people.create('o', { id: 'p', name: 'O', accounts: [] }, 1), undefined);
      assert.deepEqual((await upgraded.botCounts('o')).bySource, { api: 1 });
    } finally {
      await upgraded.close();
      await client.end();
    }
  });

  test('a journal at schema 3 is migrated to 4: people and chunks kept, the next link change requests its rename', {
    timeout: 20_000,
  }, async () => {
    const old = await server.createDatabase('schema_three');
    const first = await openPostgresJournal(old);
    await first.recordMessages(
      [{ bot: 'o', source: 'api', messageId: 'o1', speakerKind: 'user', text: 'o', ts: 1, userId: 'x:1' }],
      1,
    );
    await first.chunks.planChunk(
      { chunkId: 'c1', bot: 'o', collection: 'col', source: 'api', messageIds: ['o1'] },
      1,
    );
    await first.chunks.markChunkStored('c1', 0, 2);
    await first.people.create('o', { id: 'p1', name: 'X', accounts: [{ kind: 'user', value: 'x:1' }] }, 3);
    await first.close();
    // Back to what a schema-3 build left: people, no rename rows or persona index, version 3.
    const client = new pg.Client({ connectionString: old });
    await client.connect();
    await client.query(
      'DROP TABLE rename_requests, rename_chunks; DROP INDEX messages_by_persona; UPDATE journal_schema SET version = 3',
    );
    const upgraded = await openPostgresJournal(old);
    try {
      assert.equal(
        (await client.query<{ version: number }>('SELECT version FROM journal_schema')).rows[0]?.version,
        4,
      );
      assert.equal(
        (await client.query("SELECT 1 FROM pg_indexes WHERE indexname = 'messages_by_persona'")).rowCount,
        1,
      );
      assert.equal((await upgraded.people.get('o', 'p1'))?.name, 'X');
      assert.equal(await upgraded.people.update('o', 'p1', { name: 'Y' }, 4), true);
      assert.deepEqual(await upgraded.renames.matchingChunks('o', [{ kind: 'user', value: 'x:1' }]), ['c1']);
      assert.deepEqual(await upgraded.renames.progress(), [{ bot: 'o', accountsWaiting: 1, chunksLeft: 0 }]);
    } finally {
      await upgraded.close();
      await client.end();
    }
  });

  test('a replica frozen inside a transaction loses it to the server’s idle timeout, and its locks with it', {
    timeout: 20_000,
  }, async () => {
    const frozen = await openPostgresJournal(url, { idleInTransactionTimeoutMs: 200 });
    try {
      const msg = {
        bot: 'z',
        source: 'api',
        messageId: 'z1',
        speakerKind: 'user',
        text: 'z',
        ts: 1,
      } as const;
      const stuck = frozen.transaction(async (tx) => {
        await tx.forgetting.forgetMessages('z', [{ id: 'z1' }], 1); // holds z1's id lock
        await new Promise((resolve) => setTimeout(resolve, 1500)); // frozen well past the timeout
      });
      await assert.rejects(stuck, (error) => error instanceof JournalError);
      // The id lock went with the ended transaction, and its forget with it: the save is accepted.
      assert.equal((await a.recordMessages([msg], 2)).accepted, 1);
    } finally {
      await frozen.close();
    }
  });

  test('a route switched while the listening connection was down is announced once it listens again', {
    timeout: 20_000,
  }, async () => {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const keepAlive = setInterval(() => undefined, 100); // the watch's timers do not hold the process open
    try {
      let switched = false;
      let heardAfterSwitch: () => void = () => undefined;
      const heard = new Promise<void>((resolve) => {
        heardAfterSwitch = resolve;
      });
      const unwatch = b.changes.watch((topic) => {
        if (topic === 'routes' && switched) heardAfterSwitch();
      });
      await new Promise((resolve) => setTimeout(resolve, 300)); // b's listening connection starts
      await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE datname = current_database() AND query LIKE 'LISTEN%' AND pid <> pg_backend_pid()`,
      );
      await new Promise((resolve) => setTimeout(resolve, 100)); // the drop is seen; the reconnect waits 1 s
      await a.routes.switchTo('notify-col', 'notify-col-v2', 1); // its NOTIFY reaches no listener
      switched = true;
      await heard;
      unwatch();
    } finally {
      clearInterval(keepAlive);
      await admin.end();
    }
  });

  test('checkWritable rejects a server that answers but takes no writes (a standby, a read-only database)', {
    timeout: 20_000,
  }, async () => {
    const roUrl = await server.createDatabase('read_only');
    const admin = new pg.Client({ connectionString: roUrl });
    await admin.connect();
    await (await openPostgresJournal(roUrl)).close(); // migrated while writable
    // By its real name: a run that shares one server among files suffixes each database's.
    await admin.query(
      `ALTER DATABASE "${new URL(roUrl).pathname.slice(1)}" SET default_transaction_read_only = on`,
    );
    const journal = await openPostgresJournal(roUrl);
    try {
      await assert.rejects(journal.checkWritable(), (error) => error instanceof JournalError);
    } finally {
      await journal.close();
      await admin.end();
    }
  });
});
