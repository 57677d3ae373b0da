/**
 * @module The schema-4 persona index on a Postgres journal that already holds messages: built concurrently, so
 * another replica's saves go on while it is built (a plain CREATE INDEX queued every save behind its lock), and
 * rebuilt at the next open when a build was killed half-way (an invalid index).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { skipWithoutPostgres, startPostgres, type TestPostgres } from '../test-support/start-postgres.js';
import { openPostgresJournal } from './postgres-journal.js';

const INSERT = `INSERT INTO messages (bot, message_id, source, conversation, speaker_kind, text, ts, arrived_at)
  VALUES ('b', $1, 'api', 'c', 'user', 'hello', 1, 1)`;

describe('Postgres journal: the persona index of schema 4', { skip: skipWithoutPostgres }, () => {
  let server: TestPostgres;
  before(async () => {
    server = await startPostgres();
  });
  after(() => server?.stop());

  /** A journal with messages, as a schema-3 build left it: no persona index, version 3. */
  const schemaThreeJournal = async (name: string) => {
    const url = await server.createDatabase(name);
    await (await openPostgresJournal(url)).close();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(INSERT, ['m0']);
    await client.query('DROP INDEX messages_by_persona; UPDATE journal_schema SET version = 3');
    return { url, client };
  };
  const indexValid = async (client: pg.Client) =>
    (
      await client.query<{ valid: boolean }>(
        "SELECT indisvalid AS valid FROM pg_index WHERE indexrelid = to_regclass('messages_by_persona')",
      )
    ).rows[0]?.valid;

  test('the migration builds the index concurrently, after its transaction: saves go on while it is built', {
    timeout: 60_000,
  }, async () => {
    const { url, client } = await schemaThreeJournal('persona_busy');
    // A long read on another replica (a snapshot held): a concurrent build waits for it before it is done, which
    // keeps the build running long enough to save beside it (a plain build inside the migration did not wait, but
    // held every save for as long as it read the table: 1.6 s at a million messages, bench/persona-index.bench.ts).
    const reader = new pg.Client({ connectionString: url });
    const saver = new pg.Client({ connectionString: url, statement_timeout: 3000 });
    await Promise.all([reader.connect(), saver.connect()]);
    let opening: ReturnType<typeof openPostgresJournal> | undefined;
    try {
      await reader.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
      await reader.query('SELECT count(*) FROM messages');
      opening = openPostgresJournal(url);
      // The open's schema script also runs `CREATE INDEX IF NOT EXISTS` for the indexes the table has, which can
      // show in the progress view for an instant as a plain build: wait for the persona index's own build.
      let building: { command: string; phase: string } | undefined;
      for (let i = 0; i < 400 && building === undefined; i++) {
        building = (
          await client.query<{ command: string; phase: string }>(
            "SELECT command, phase FROM pg_stat_progress_create_index WHERE relid = 'messages'::regclass AND command = 'CREATE INDEX CONCURRENTLY'",
          )
        ).rows[0];
        if (building === undefined) await new Promise((resolve) => setTimeout(resolve, 25));
      }
      assert.equal(building?.command, 'CREATE INDEX CONCURRENTLY', 'the open builds the index, concurrently');
      // Saved while the index is being built, and not yet used by any query meanwhile.
      await saver.query(INSERT, ['m2']);
      assert.equal(await indexValid(client), false);
      await reader.query('COMMIT');
      const journal = await opening;
      opening = undefined;
      await journal.close();
      assert.equal(await indexValid(client), true);
      const version = await client.query<{ version: number }>('SELECT version FROM journal_schema');
      assert.equal(version.rows[0]?.version, 4);
    } finally {
      // Ending the reader lets a build still waiting on its snapshot finish; a journal left open would keep this
      // file's process (and the whole test run) alive after a failure.
      await reader.end();
      await opening?.then(
        (journal) => journal.close(),
        () => undefined,
      );
      await Promise.all([saver.end(), client.end()]);
    }
  });

  test('a replica opening while another builds the index starts at once, without it; the builder finishes', {
    timeout: 30_000,
  }, async () => {
    const { url, client } = await schemaThreeJournal('persona_two');
    // A snapshot held on a third replica keeps the first replica's concurrent build waiting. A second
    // replica that waited for the build (holding a snapshot the build waits for in turn) deadlocked, and failed
    // to start; it now serves without the index, which only speeds up the rename pass.
    const reader = new pg.Client({ connectionString: url });
    await reader.connect();
    try {
      await reader.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
      await reader.query('SELECT count(*) FROM messages');
      const first = openPostgresJournal(url);
      let building = false;
      for (let i = 0; i < 400 && !building; i++) {
        const progress = await client.query(
          "SELECT 1 FROM pg_stat_progress_create_index WHERE relid = 'messages'::regclass",
        );
        building = progress.rows.length > 0;
        if (!building) await new Promise((resolve) => setTimeout(resolve, 25));
      }
      assert.ok(building, 'the first replica builds the index');
      const second = await openPostgresJournal(url);
      await second.close();
      assert.equal(await indexValid(client), false, 'the second replica started before the build was done');
      await reader.query('COMMIT');
      await (await first).close();
      assert.equal(await indexValid(client), true);
    } finally {
      await Promise.all([reader.end(), client.end()]);
    }
  });

  test('an index left invalid by a build killed half-way is built again at the next open', async () => {
    const { url, client } = await schemaThreeJournal('persona_invalid');
    try {
      await (await openPostgresJournal(url)).close();
      // What a killed CREATE INDEX CONCURRENTLY leaves: the index, marked invalid (never used by queries).
      await client.query(
        "UPDATE pg_index SET indisvalid = false WHERE indexrelid = 'messages_by_persona'::regclass",
      );
      assert.equal(await indexValid(client), false);
      await (await openPostgresJournal(url)).close();
      assert.equal(await indexValid(client), true);
    } finally {
      await client.end();
    }
  });
});
