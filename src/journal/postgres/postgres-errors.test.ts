/** @module The Postgres URL's secrets never reach a message, however the URL is written. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { redactPostgresUrl, toPostgresJournalError, withoutPassword } from './postgres-errors.js';

const SECRET = 'hunter2-Secret';

test('redactPostgresUrl and withoutPassword hide the password in the userinfo, the query or after a raw #', () => {
  const urls = [
    `postgres://u:${SECRET}@db/memory`,
    `postgres://db/memory?password=${SECRET}`,
    `postgres://u@db/memory?sslpassword=${SECRET}&sslmode=require`,
    `postgres://u:p@ss#${SECRET}@db/memory`,
  ];
  for (const url of urls) {
    assert.ok(!redactPostgresUrl(url).includes(SECRET), redactPostgresUrl(url));
  }
  for (const url of urls.slice(0, 3)) {
    assert.equal(withoutPassword(`login failed: ${SECRET}`, url), 'login failed: ***');
  }
});

test('withoutPassword reads a password with a malformed escape instead of throwing', () => {
  assert.equal(withoutPassword('failed with pa%zz', 'postgres://u:pa%zz@db/memory'), 'failed with ***');
});

test('a pool with no free connection is told apart from a failed connection', () => {
  const full = toPostgresJournalError(
    new Error('timeout exceeded when trying to connect'),
    'postgres://db/x',
  );
  assert.match(full?.message ?? '', /no connection of this replica's pool came free/);
  const lost = toPostgresJournalError(new Error('Connection terminated unexpectedly'), 'postgres://db/x');
  assert.match(lost?.message ?? '', /the connection to Postgres failed/);
});

test('a login refused while serving (a rotated password) is the retryable 503 journal error naming it', () => {
  const refused = Object.assign(new Error(`password authentication failed for user "memory"`), {
    code: '28P01',
  });
  const error = toPostgresJournalError(refused, `postgres://memory:${SECRET}@db/memory`);
  assert.equal(error?.status, 503);
  assert.equal(error?.retryable, true);
  assert.match(error?.message ?? '', /Postgres refused the login/);
  assert.ok(!error?.message.includes(SECRET));
});

test("the 503 every key reads names no server: the driver's words and the URL are the log's detail", () => {
  const refused = Object.assign(new Error('password authentication failed for user "pooluser"'), {
    code: '28P01',
  });
  const error = toPostgresJournalError(refused, `postgres://pooluser:${SECRET}@db.internal:5433/memories`);
  for (const identity of ['pooluser', 'db.internal', '5433', 'memories']) {
    assert.ok(!error?.message.includes(identity), `the message names ${identity}: ${error?.message}`);
  }
  assert.match(error?.detail ?? '', /password authentication failed for user "pooluser"/);
  assert.match(error?.detail ?? '', /db\.internal:5433\/memories/);
  assert.ok(!error?.detail?.includes(SECRET));
});
