/** @module `memory-pool journal copy`: every kind of row copied and read back through the Postgres journal, resumed, refused. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { writeLegacyDiscordFile } from '../../interfaces/discord/test-support/legacy-discord-file.js';
import { openPostgresCopyTarget } from '../../journal/postgres/postgres-copy-target.js';
import { openPostgresJournal } from '../../journal/postgres/postgres-journal.js';
import { openSqliteJournal } from '../../journal/sqlite/sqlite-journal.js';
import {
  skipWithoutPostgres,
  startPostgres,
  type TestPostgres,
} from '../../journal/test-support/start-postgres.js';
import { type JournalCopyDeps, runJournalCopy } from './journal-command.js';
import { captureOutput } from './test-support/data-tool-fixture.js';
import { BOT, readDataDir, readPostgres, writeSource } from './test-support/journal-copy-fixture.js';

/** The Discord state's tables: the fixture writes one row of each. */
const DISCORD_TABLES = [
  'discord_opt_outs',
  'discord_channel_rules',
  'discord_backfilled',
  'discord_forgotten_before',
  'discord_threads',
  'discord_gateway',
];

async function copy(config: string, to: string, deps: JournalCopyDeps = {}, extra = {}) {
  const io = captureOutput();
  const code = await runJournalCopy({ config, to, json: true, ...extra }, io, { env: {}, ...deps });
  const { out, err } = io.text();
  return { code, err, summary: out === '' ? undefined : JSON.parse(out) };
}

describe('memory-pool journal copy', { skip: skipWithoutPostgres }, () => {
  let server: TestPostgres;
  let dir: string;
  let databases = 0;
  const database = () => server.createDatabase(`copy_${++databases}`);
  before(async () => {
    server = await startPostgres();
    dir = mkdtempSync(join(tmpdir(), 'memory-pool-copy-'));
  });
  after(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('copies every kind of row, read back equal through the Postgres journal; a second run copies nothing', {
    timeout: 60_000,
  }, async () => {
    const source = join(dir, 'every');
    const config = await writeSource(source);
    const url = await database();
    const first = await copy(config, url);
    assert.equal(first.code, 0, first.err);
    assert.equal(first.summary.tables.messages.inserted, 6); // m4 was forgotten: its row is gone
    for (const table of DISCORD_TABLES) assert.equal(first.summary.tables[table]?.inserted, 1, table);
    assert.equal(first.summary.tables.people?.inserted, 1);
    assert.equal(first.summary.tables.person_accounts?.inserted, 2);
    const copied = await readPostgres(url);
    assert.deepEqual(copied, await readDataDir(source));
    assert.deepEqual(copied.discord, {
      optedOut: ['u1'],
      channelRules: [{ channelId: 'c9', rule: 'deny' }],
      backfilled: ['c8'],
      forgotten: [{ kind: 'user', id: 'u2', at: 24 }],
      threads: [{ threadId: 't1', parentId: 'c8', isPublic: true }],
      connectedUntil: 25,
    });
    assert.deepEqual(
      (copied.people as { name: string; accounts: unknown[] }[]).map((p) => [p.name, p.accounts.length]),
      [['Ann \\ B', 2]],
    );
    const concurrent = await openPostgresCopyTarget(url);
    const meanwhile = await copy(config, url);
    await concurrent.close();
    assert.match(
      meanwhile.err,
      /^error: --to: another `memory-pool journal copy` is filling this Postgres journal now/,
    );
    const second = await copy(config, url);
    assert.equal(second.code, 0, second.err);
    for (const [table, figures] of Object.entries(second.summary.tables)) {
      assert.deepEqual(
        { ...(figures as object), rows: 0 },
        { rows: 0, inserted: 0, updated: 0, deleted: 0 },
        table,
      );
    }
    // The audit's ids were copied as they are: the next one recorded on Postgres follows them.
    const journal = await openPostgresJournal(url);
    await journal.forgetting.recordAudit({ at: 40, actor: 'k2', bot: BOT, selector: {}, result: {} });
    assert.deepEqual(
      (await journal.forgetting.listAudit({ limit: 10 })).map((entry) => entry.id),
      [2, 1],
    );
    await journal.close();
  });

  test('what changed in the source between two runs reaches the copy, a forget included', {
    timeout: 60_000,
  }, async () => {
    const source = join(dir, 'changed');
    const config = await writeSource(source);
    const url = await database();
    assert.equal((await copy(config, url)).code, 0);
    const journal = openSqliteJournal(join(source, 'data'));
    await journal.forgetting.forgetMessages(BOT, [{ id: 'm1' }], 30);
    await journal.chunks.markChunkStored('c2', 0, 31);
    await journal.close();
    const again = await copy(config, url);
    assert.equal(again.code, 0, again.err);
    assert.equal(again.summary.tables.messages.deleted, 1);
    assert.deepEqual(await readPostgres(url), await readDataDir(source));
  });

  test('an interrupted copy run again keeps what it wrote and writes only the rest', { timeout: 60_000 }, async () => {
    const source = join(dir, 'resumed');
    const config = await writeSource(source);
    const url = await database();
    let batches = 0;
    const interrupted = await copy(config, url, {
      batchSize: 2,
      afterBatch: () => {
        if (++batches === 2) throw new Error('killed mid-copy');
      },
    });
    assert.equal(interrupted.code, 1);
    assert.match(interrupted.err, /killed mid-copy/);
    const read: string[] = [];
    const resumed = await copy(config, url, { batchSize: 2, afterBatch: (table) => read.push(table) });
    assert.equal(resumed.code, 0, resumed.err);
    assert.equal(resumed.summary.resumed, true);
    // Two batches of two messages were committed before the stop: every message is read again (the source may
    // have changed meanwhile), but only the other two are written.
    assert.equal(read.filter((table) => table === 'messages').length, 3);
    assert.equal(resumed.summary.tables.messages.inserted, 2);
    assert.equal(resumed.summary.tables.messages.updated, 0);
    assert.deepEqual(await readPostgres(url), await readDataDir(source));
  });

  test('a copy stopped after the messages table was done, resumed after two forgets, keeps no forgotten text', {
    timeout: 60_000,
  }, async () => {
    const source = join(dir, 'resumed-forget');
    const config = await writeSource(source);
    const url = await database();
    const interrupted = await copy(config, url, {
      batchSize: 2,
      afterBatch: (table) => {
        if (table === 'chunks') throw new Error('killed after messages');
      },
    });
    assert.equal(interrupted.code, 1);
    const journal = openSqliteJournal(join(source, 'data'));
    await journal.forgetting.forgetMessages(BOT, [{ id: 'm1' }, { id: 'm2' }], 30);
    await journal.close();
    const resumed = await copy(config, url, { batchSize: 2 });
    assert.equal(resumed.code, 0, resumed.err);
    assert.equal(resumed.summary.resumed, true);
    assert.equal(resumed.summary.tables.messages.deleted, 2);
    assert.deepEqual(await readPostgres(url), await readDataDir(source));
  });

  test('a Postgres journal holding other data is refused, naming what it holds and the fix', {
    timeout: 60_000,
  }, async () => {
    const config = await writeSource(join(dir, 'refused'));
    const written = await database();
    const service = await openPostgresJournal(written);
    await service.recordMessages(
      [{ bot: BOT, source: 'api', messageId: 'x', speakerKind: 'user' as const, text: 'x', ts: 1 }],
      1,
    );
    // While it serves, the copy refuses it for that; once stopped, for the data it left.
    const serving = await copy(config, written);
    assert.equal(serving.code, 1);
    assert.match(
      serving.err,
      /^error: --to: memory-pool is serving this Postgres journal now: memory-pool serve /,
    );
    await service.close();
    const foreign = await copy(config, written);
    assert.equal(foreign.code, 1);
    assert.match(
      foreign.err,
      /--to: the Postgres journal already holds data that no journal copy wrote \(a service or another tool\): 1 row in messages\. Copy into an empty database/,
    );
    // A copy of this source, written since by a service, is refused too.
    const copied = await database();
    assert.equal((await copy(config, copied)).code, 0);
    const replica = await openPostgresJournal(copied);
    await replica.recordMessages(
      [{ bot: BOT, source: 'api', messageId: 'new', speakerKind: 'user' as const, text: 'n', ts: 2 }],
      2,
    );
    await replica.close();
    const since = await copy(config, copied);
    assert.equal(since.code, 1);
    assert.match(since.err, /written since the last copy .*7 rows in messages \(the copy left 6\)/);
    // And another journal's copy.
    const other = await copy(await writeSource(join(dir, 'other')), copied);
    assert.match(other.err, /holds a copy of another journal/);
  });

  test('an older discord.sqlite not yet moved into the journal is refused, naming the file and the fix', {
    timeout: 60_000,
  }, async () => {
    const config = await writeSource(join(dir, 'legacy'));
    writeLegacyDiscordFile(join(dir, 'legacy', 'data'), true);
    const refused = await copy(config, await database());
    assert.equal(refused.code, 1);
    assert.match(
      refused.err,
      /discord\.sqlite holds an older memory-pool's Discord state .*Start `memory-pool serve` once/,
    );
  });

  test('--dry-run counts the rows and writes nothing', { timeout: 60_000 }, async () => {
    const config = await writeSource(join(dir, 'dry'));
    const url = await database();
    const dry = await copy(config, url, {}, { dryRun: true });
    assert.equal(dry.code, 0, dry.err);
    assert.equal(dry.summary.tables.messages.rows, 6);
    assert.equal(dry.summary.tables.forgotten_messages.rows, 2);
    const check = await copy(config, url);
    assert.equal(check.summary.tables.messages.inserted, 6); // nothing was there before
  });
});

describe('memory-pool journal copy: the target named wrong', () => {
  const dir = mkdtempSync(join(tmpdir(), 'memory-pool-copy-url-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const config = join(dir, 'memory-pool.yaml');
  writeFileSync(
    config,
    `dataDir: ${JSON.stringify(join(dir, 'data'))}\nbots: { ${BOT}: { selfSpeaker: Mythos } }\n`,
  );
  const run = async (options: { to?: string }, env: NodeJS.ProcessEnv = {}) => {
    const io = captureOutput();
    const code = await runJournalCopy({ config, ...options }, io, { env });
    return { code, err: io.text().err };
  };

  test('a malformed --to or MEMORY_POOL_POSTGRES_URL names the flag or variable, never the password', async () => {
    const bad = await run({ to: 'mysql://pool:s3cret@db/memory' });
    assert.equal(bad.code, 1);
    assert.match(bad.err, /^error: --to: expected a postgres:\/\/ URL/);
    assert.doesNotMatch(bad.err, /s3cret/);
    const fromEnv = await run({}, { MEMORY_POOL_POSTGRES_URL: 'pool:s3cret@db' });
    assert.match(fromEnv.err, /^error: MEMORY_POOL_POSTGRES_URL: expected a postgres:\/\/ URL/);
    assert.doesNotMatch(fromEnv.err, /s3cret/);
    const missing = await run({});
    assert.match(
      missing.err,
      /^error: --to: journal copy needs the Postgres journal .* set MEMORY_POOL_POSTGRES_URL, or set journal.postgres.url/,
    );
  });

  test('a source with no journal names dataDir; an unreachable target names --to, its password hidden', async () => {
    const noJournal = await run({ to: 'postgres://pool:s3cret@127.0.0.1:1/memory' });
    assert.match(noJournal.err, /dataDir: .* holds no journal\.sqlite/);
    const journal = openSqliteJournal(join(dir, 'data'));
    await journal.close();
    const unreachable = await run({ to: 'postgres://pool:s3cret@127.0.0.1:1/memory' });
    assert.equal(unreachable.code, 1);
    assert.match(
      unreachable.err,
      /^error: --to: cannot open the Postgres journal at postgres:\/\/pool:\*\*\*@127\.0\.0\.1:1\/memory/,
    );
    assert.doesNotMatch(unreachable.err, /s3cret/);
  });
});
