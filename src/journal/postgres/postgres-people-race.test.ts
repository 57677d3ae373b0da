/**
 * @module A person removed while another replica links an account to them (Postgres only: SQLite has one
 * writer): the remove waits for the person's row, so the link it races is removed with the person instead of
 * being left behind, pointing at nobody (the account could then never be linked again).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import type { Journal } from '../journal.js';
import { skipWithoutPostgres, startPostgres, type TestPostgres } from '../test-support/start-postgres.js';
import { openPostgresJournal } from './postgres-journal.js';

describe('Postgres people: a remove racing an update of the same person', {
  skip: skipWithoutPostgres,
}, () => {
  let server: TestPostgres;
  let journal: Journal;
  let other: pg.Client;
  before(async () => {
    server = await startPostgres();
    const url = await server.createDatabase('people_race');
    journal = await openPostgresJournal(url);
    other = new pg.Client({ connectionString: url });
    await other.connect();
  });
  after(async () => {
    await other?.end();
    await journal?.close();
    await server?.stop();
  });

  test('the link made meanwhile goes with the person', { timeout: 20_000 }, async () => {
    const account = { kind: 'user' as const, value: 'telegram:1' };
    assert.equal(
      await journal.people.create('b', { id: 'p1', name: 'Anna', accounts: [account] }, 1),
      undefined,
    );
    // Another replica's update, holding the person's row (as update does) while it links a second account.
    await other.query('BEGIN');
    await other.query("UPDATE people SET updated_at = 2 WHERE bot = 'b' AND person_id = 'p1'");
    const removing = journal.people.remove('b', 'p1', 3);
    // Wait until the remove is blocked on that row lock.
    for (let i = 0; i < 200; i++) {
      const waiting = await other.query(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
      );
      if (waiting.rows[0].n > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await other.query(
      "INSERT INTO person_accounts (bot, kind, value, person_id, linked_at) VALUES ('b', 'user', 'telegram:2', 'p1', 2)",
    );
    await other.query('COMMIT');
    assert.equal(await removing, true);
    const left = await other.query("SELECT value FROM person_accounts WHERE bot = 'b' AND person_id = 'p1'");
    assert.deepEqual(left.rows, [], 'no link left pointing at a removed person');
    assert.equal(
      await journal.people.create(
        'b',
        { id: 'p2', name: 'Tee', accounts: [{ kind: 'user', value: 'telegram:2' }] },
        3,
      ),
      undefined,
      'the account can be linked again',
    );
  });
});
