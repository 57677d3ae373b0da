/** @module The doctor's Postgres journal checks against a throwaway server: each failure named, with its fix, the password hidden. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { openPostgresJournal } from '../journal/postgres/postgres-journal.js';
import {
  skipWithoutPostgres,
  startPostgres,
  type TestPostgres,
} from '../journal/test-support/start-postgres.js';
import { checkPostgresReachable, checkPostgresWritable } from './doctor-postgres-checks.js';

const PASSWORD = 'doctor-Secret';

describe('doctor on a Postgres journal', { skip: skipWithoutPostgres }, () => {
  let server: TestPostgres;
  before(async () => {
    server = await startPostgres();
  });
  after(() => server?.stop());

  test('an empty database passes, naming who creates the schema; an opened one names its version', async () => {
    const url = await server.createDatabase('doctor_empty');
    const empty = await checkPostgresReachable(url);
    assert.equal(empty.usable, true);
    assert.deepEqual(
      empty.checks.map((c) => [c.name, c.ok]),
      [
        ['journal reachable', true],
        ['journal schema', true],
      ],
    );
    assert.match(
      empty.checks[1]!.detail,
      /no journal in this database yet: the first open \(serve, or this doctor\) creates schema 4/,
    );
    const journal = await openPostgresJournal(url);
    assert.match((await checkPostgresReachable(url)).checks[1]!.detail, /^schema 4, as this build writes$/);
    const writable = await checkPostgresWritable(journal, url);
    assert.equal(writable.ok, true, writable.detail);
    await journal.close();
  });

  test('a journal of a newer memory-pool fails the schema check', async () => {
    const url = await server.createDatabase('doctor_newer');
    await (await openPostgresJournal(url)).close();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query('UPDATE journal_schema SET version = 99');
    await client.end();
    const newer = await checkPostgresReachable(url);
    assert.equal(newer.usable, false);
    assert.equal(newer.checks[1]?.ok, false);
    assert.match(newer.checks[1]!.detail, /newer memory-pool \(schema 99, this build knows 4\)/);
    assert.match(newer.checks[1]!.fix!, /Upgrade memory-pool/);
  });

  test('a read-only database fails the write check, naming the primary as the fix', async () => {
    const url = await server.createDatabase('doctor_read_only');
    const journal = await openPostgresJournal(url);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    // By its real name: a run that shares one server among files suffixes each database's.
    await client.query(
      `ALTER DATABASE "${new URL(url).pathname.slice(1)}" SET default_transaction_read_only = on`,
    );
    await client.end();
    await journal.close(); // new connections see the setting
    const again = await openPostgresJournal(url);
    const check = await checkPostgresWritable(again, url);
    await again.close();
    assert.equal(check.ok, false);
    assert.match(check.detail, /read-only/);
    assert.match(check.fix!, /the primary/);
  });
});

test('an unreachable server fails the first check with the fix, its password hidden', async () => {
  const result = await checkPostgresReachable(`postgres://pool:${PASSWORD}@127.0.0.1:1/memory`, 2000);
  assert.equal(result.usable, false);
  const [check, ...rest] = result.checks;
  assert.deepEqual(rest, []);
  assert.equal(check?.name, 'journal reachable');
  assert.equal(check?.ok, false);
  assert.match(
    check!.detail,
    /journal\.postgres\.url: cannot open the Postgres journal at postgres:\/\/pool:\*\*\*@127\.0\.0\.1:1\/memory/,
  );
  assert.doesNotMatch(JSON.stringify(check), new RegExp(PASSWORD));
});
