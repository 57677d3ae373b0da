import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { ConfigError, JournalError } from '../../errors/memory-pool-error.js';
import { findFreePort } from '../../runtime/find-free-port.js';
import { skipWithoutPostgres, startPostgres, type TestPostgres } from '../test-support/start-postgres.js';
import { checkPostgresJournal } from './check-postgres-journal.js';
import { openPostgresJournal } from './postgres-journal.js';
import { SCHEMA_VERSION } from './postgres-schema.js';

const PASSWORD = 'pg-pass-Secret';

/** Expects a ConfigError naming journal.postgres.url whose message never holds the password. */
const namingTheKey = (pattern: RegExp) => (error: unknown) => {
  assert.ok(error instanceof ConfigError, String(error));
  assert.equal(error.field, 'journal.postgres.url');
  assert.ok(!error.message.includes(PASSWORD), error.message);
  assert.match(error.message, pattern);
  return true;
};

test('a journal whose server goes away answers JournalError (a retryable 503), password hidden', {
  skip: skipWithoutPostgres,
}, async () => {
  const lost = await startPostgres({ dedicated: true }); // stopped below
  const url = (await lost.createDatabase('lost')).replace('postgres@', `postgres:${PASSWORD}@`);
  const journal = await openPostgresJournal(url);
  await journal.checkWritable();
  await lost.stop();
  const unavailable = (error: unknown) => {
    assert.ok(error instanceof JournalError, String(error));
    assert.equal(error.code, 'journal_unavailable');
    assert.equal(error.retryable, true);
    assert.ok(!error.message.includes(PASSWORD), error.message);
    assert.match(error.message, /journal\.postgres\.url/);
    return true;
  };
  await assert.rejects(journal.checkWritable(), unavailable);
  const message = {
    bot: 'b',
    source: 'api',
    messageId: 'm1',
    speakerKind: 'user',
    text: 'hi',
    ts: 1,
  } as const;
  await assert.rejects(journal.recordMessages([message], 1), unavailable);
  await journal.close();
});

describe('the Postgres journal at start-up', { skip: skipWithoutPostgres }, () => {
  let server: TestPostgres;
  before(async () => {
    server = await startPostgres();
  });
  after(() => server?.stop());

  test('checkPostgresJournal answers with the server version', async () => {
    const { serverVersion } = await checkPostgresJournal(server.url);
    assert.match(serverVersion, /^15\./);
  });

  test('a server that is not there is a ConfigError naming the key, with the password hidden', async () => {
    const port = await findFreePort();
    const url = `postgres://pool:${PASSWORD}@127.0.0.1:${port}/memory`;
    await assert.rejects(
      checkPostgresJournal(url),
      namingTheKey(/pool:\*\*\*@127\.0\.0\.1.*Check the host and port/),
    );
    await assert.rejects(openPostgresJournal(url), namingTheKey(/ECONNREFUSED/));
  });

  test('a database that does not exist is a ConfigError saying to create it', async () => {
    const url = server.url.replace(/\/postgres$/, '/missing');
    await assert.rejects(checkPostgresJournal(url), namingTheKey(/3D000.*createdb/));
  });

  test('replicas starting at once create the schema once; a newer schema is refused', async () => {
    const url = await server.createDatabase('start_up');
    const journals = await Promise.all(Array.from({ length: 4 }, () => openPostgresJournal(url)));
    await Promise.all(journals.map((journal) => journal.close()));
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const versions = await client.query('SELECT version FROM journal_schema');
      assert.deepEqual(versions.rows, [{ version: SCHEMA_VERSION }]);
      await client.query('UPDATE journal_schema SET version = 99');
    } finally {
      await client.end();
    }
    await assert.rejects(openPostgresJournal(url), namingTheKey(/newer memory-pool \(schema 99/));
  });
});
