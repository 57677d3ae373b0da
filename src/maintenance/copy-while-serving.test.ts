/** @module `journal copy` and serving one Postgres journal exclude each other; rows written beside a copy stop its deletes. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { writeSource } from '../cli/commands/test-support/journal-copy-fixture.js';
import type { Journal } from '../journal/journal.js';
import { COPY_LOCK } from '../journal/postgres/postgres-copy-lock.js';
import { openPostgresCopyTarget } from '../journal/postgres/postgres-copy-target.js';
import { openPostgresJournal } from '../journal/postgres/postgres-journal.js';
import { openSqliteCopySource } from '../journal/sqlite/sqlite-copy-source.js';
import {
  skipWithoutPostgres,
  startPostgres,
  type TestPostgres,
} from '../journal/test-support/start-postgres.js';
import { copyJournal } from './copy-journal.js';

const LIVE = { bot: 'mythos', source: 'api', messageId: 'live-1', speakerKind: 'user' as const, ts: 5000 };

describe('journal copy vs a serving replica', { skip: skipWithoutPostgres }, () => {
  let server: TestPostgres;
  let dir: string;
  let databases = 0;
  before(async () => {
    server = await startPostgres();
    dir = mkdtempSync(join(tmpdir(), 'copy-serving-'));
    await writeSource(dir);
  });
  after(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test("a copy refuses a database a replica serves, naming it; the replica's save survives", {
    timeout: 60_000,
  }, async () => {
    const url = await server.createDatabase(`serving_${++databases}`);
    // A replica started on the new (empty) database before the copy, as the nginx setup would.
    const replica: Journal = await openPostgresJournal(url);
    await replica.recordMessages([{ ...LIVE, text: 'saved before the copy' }], 5000);
    await assert.rejects(openPostgresCopyTarget(url), (error: Error) => {
      assert.match(
        error.message,
        /memory-pool is serving this Postgres journal now: memory-pool serve \S+:\d+:/,
      );
      assert.match(error.message, /Stop every memory-pool serve/);
      return true;
    });
    const live = await replica.forgetting.journaledAmong('mythos', 'api', ['live-1']);
    await replica.close();
    assert.ok(live.has('live-1'));
    // Once the replica is gone, its lock is too: the copy is then refused only for the data it left.
    const target = await openPostgresCopyTarget(url);
    await target.close();
  });

  test('a replica refuses to open while a copy fills the database, naming the copy', {
    timeout: 60_000,
  }, async () => {
    const url = await server.createDatabase(`serving_${++databases}`);
    const target = await openPostgresCopyTarget(url);
    try {
      await assert.rejects(openPostgresJournal(url), (error: Error) => {
        assert.match(
          error.message,
          /a `memory-pool journal copy` is filling this Postgres journal now \(memory-pool journal copy \S+:\d+:/,
        );
        assert.match(error.message, /Wait for the copy to finish/);
        return true;
      });
    } finally {
      await target.close();
    }
    await (await openPostgresJournal(url)).close(); // the copy's end frees it
  });

  test('a replica whose lock connection was cut takes the lock again: a copy is refused again', {
    timeout: 60_000,
  }, async () => {
    const url = await server.createDatabase(`serving_${++databases}`);
    const replica = await openPostgresJournal(url);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const sharedHolders = async () =>
      (
        await admin.query(
          // This database's only: a test run may share one server among files.
          "SELECT 1 FROM pg_locks l JOIN pg_database d ON d.oid = l.database WHERE d.datname = current_database() AND locktype = 'advisory' AND mode = 'ShareLock' AND objid = $1 AND granted",
          [COPY_LOCK],
        )
      ).rowCount;
    try {
      // As a server restart or a network cut would: the lock's connection ends, the replica keeps serving.
      await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name LIKE 'memory-pool serve %'",
      );
      for (let i = 0; (await sharedHolders()) !== 0 && i < 100; i++) await sleep(50);
      for (let i = 0; (await sharedHolders()) === 0 && i < 300; i++) await sleep(100);
      await assert.rejects(openPostgresCopyTarget(url), /memory-pool is serving this Postgres journal now/);
    } finally {
      await admin.end();
      await replica.close();
    }
  });

  test('a copy started right after a replica lost its lock connection is refused by its heartbeat (issue 37)', {
    timeout: 60_000,
  }, async () => {
    const url = await server.createDatabase(`serving_${++databases}`);
    const replica = await openPostgresJournal(url);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      // The lock's connection only (the replica's pool serves on), and the copy starts before the re-take.
      await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name LIKE 'memory-pool serve %'",
      );
      await assert.rejects(openPostgresCopyTarget(url), (error: Error) => {
        assert.match(
          error.message,
          /memory-pool is serving this Postgres journal now: memory-pool serve \S+:\d+:\S+ \(heartbeat \d+ s ago\), whose lock connection dropped/,
        );
        return true;
      });
      // What the replica saves meanwhile stays: no copy ran.
      await replica.recordMessages([{ ...LIVE, text: 'saved after the cut' }], 5000);
      assert.ok((await replica.forgetting.journaledAmong('mythos', 'api', ['live-1'])).has('live-1'));
    } finally {
      await admin.end();
      await replica.close();
    }
    // Closed, it says so at once: a copy may start (the database holds only the replica's data to refuse).
    await (await openPostgresCopyTarget(url)).close();
  });

  test('rows another writer adds during the copy abort it before its delete pass: nothing deleted', {
    timeout: 60_000,
  }, async () => {
    const url = await server.createDatabase(`serving_${++databases}`);
    const source = openSqliteCopySource(join(dir, 'data'));
    const target = await openPostgresCopyTarget(url);
    // A writer that does not take the lock (an older memory-pool, a tool): only the count re-check sees it.
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    let wrote = false;
    try {
      await assert.rejects(
        copyJournal(source, target, {
          targetLabel: '--to',
          batchSize: 2,
          afterBatch: async (table) => {
            if (table !== 'messages' || wrote) return;
            wrote = true;
            await other.query(
              `INSERT INTO messages (bot, source, message_id, conversation, speaker_kind, text, ts, arrived_at)
               VALUES ('mythos', 'api', 'live-1', 'c', 'user', 'saved while copying', 5000, 5000)`,
            );
          },
        }),
        /--to: while copying, messages in the Postgres journal changed under the copy \(7 rows, the copy wrote 6\).*Nothing was deleted/,
      );
      const left = await other.query("SELECT 1 FROM messages WHERE message_id = 'live-1'");
      assert.equal(left.rowCount, 1);
    } finally {
      await other.end();
      await target.close();
      source.close();
    }
  });
});
