/** @module `doctor` and `stats` on a Postgres journal: a SQLite journal copied in, then read and checked there. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runDoctor } from '../cli/commands/doctor-command.js';
import { runJournalCopy } from '../cli/commands/journal-command.js';
import { runStats } from '../cli/commands/stats-command.js';
import { captureOutput } from '../cli/commands/test-support/data-tool-fixture.js';
import { BOT, COLLECTION, writeSource } from '../cli/commands/test-support/journal-copy-fixture.js';
import {
  skipWithoutPostgres,
  startPostgres,
  type TestPostgres,
} from '../journal/test-support/start-postgres.js';

const PASSWORD = 'stats-Secret';

/** A config on the same data folder (embedded store, hashing embedder) whose journal is the Postgres at `url`. */
function writePostgresConfig(dir: string, url: string): string {
  const file = join(dir, 'on-postgres.yaml');
  writeFileSync(
    file,
    [
      `dataDir: ${JSON.stringify(join(dir, 'data'))}`,
      `store: { embedded: { path: ${JSON.stringify(join(dir, 'qdrant'))} } }`,
      'embedding: { provider: hashing, dimensions: 8 }',
      `journal: { postgres: { url: ${JSON.stringify(url)} } }`,
      `bots: { ${BOT}: { selfSpeaker: Mythos, collection: ${COLLECTION} } }`,
      '',
    ].join('\n'),
  );
  return file;
}

async function doctorChecks(config: string) {
  const io = captureOutput();
  const code = await runDoctor({ config, json: true }, io);
  const { out, err } = io.text();
  const report = JSON.parse(out) as { checks: { name: string; ok: boolean; detail: string; fix?: string }[] };
  return { code, out, err, checks: new Map(report.checks.map((c) => [c.name, c])) };
}

describe('doctor and stats on a Postgres journal', { skip: skipWithoutPostgres }, () => {
  let server: TestPostgres;
  let dir: string;
  let config: string;
  before(async () => {
    server = await startPostgres();
    dir = mkdtempSync(join(tmpdir(), 'memory-pool-pg-tools-'));
    const url = await server.createDatabase('tools');
    const copied = captureOutput();
    assert.equal(await runJournalCopy({ config: await writeSource(dir), to: url }, copied, { env: {} }), 0);
    config = writePostgresConfig(dir, url);
  });
  after(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('stats reads the messages, pending and forgotten counts from Postgres', {
    timeout: 60_000,
  }, async () => {
    const io = captureOutput();
    assert.equal(await runStats({ config, json: true }, io), 0, io.text().err);
    const [stats] = JSON.parse(io.text().out).bots;
    assert.deepEqual(stats.messagesBySource, { api: 5, discord: 1 });
    assert.equal(stats.forgotten, 2);
    assert.equal(stats.pending, 4); // m3 in a chunk still planned, m5-m7 in none
  });

  test('doctor checks the Postgres journal: reachable, its schema, takes writes', {
    timeout: 60_000,
  }, async () => {
    const { checks, out } = await doctorChecks(config);
    assert.match(
      checks.get('journal reachable')?.detail ?? out,
      /^Postgres 15\.\d+.* at postgres:\/\/postgres@127\.0\.0\.1:\d+\/tools(_\d+_\d+)? answers$/,
    );
    assert.equal(checks.get('journal schema')?.detail, 'schema 4, as this build writes');
    assert.equal(checks.get('journal writable')?.ok, true, out);
    assert.match(checks.get('journal writable')!.detail, /takes writes/);
    assert.equal(checks.get('pending backlog')?.ok, false, 'the copied messages arrived long ago and wait');
  });

  test("journal copy with neither --to nor the variable copies into the config's journal.postgres.url", {
    timeout: 60_000,
  }, async () => {
    const io = captureOutput();
    assert.equal(await runJournalCopy({ config, json: true }, io, { env: {} }), 0, io.text().err);
    const summary = JSON.parse(io.text().out);
    assert.match(summary.to, /\/tools(_\d+_\d+)?$/); // suffixed when the run shares one server
    assert.equal(summary.tables.messages.inserted, 0, 'the same journal, copied before');
  });

  test('doctor on an unreachable Postgres fails one line naming the key and the fix, the password hidden', {
    timeout: 60_000,
  }, async () => {
    const unreachable = writePostgresConfig(
      mkdtempSync(join(dir, 'gone-')),
      `postgres://pool:${PASSWORD}@127.0.0.1:1/memory`,
    );
    const { code, out, checks } = await doctorChecks(unreachable);
    assert.equal(code, 1);
    assert.equal(checks.get('journal reachable')?.ok, false);
    assert.match(
      checks.get('journal reachable')!.detail,
      /journal\.postgres\.url: cannot open the Postgres journal/,
    );
    assert.match(checks.get('journal reachable')!.fix!, /MEMORY_POOL_POSTGRES_URL/);
    assert.equal(checks.has('journal writable'), false, 'not opened once it cannot be reached');
    assert.doesNotMatch(out, new RegExp(PASSWORD));
  });
});
