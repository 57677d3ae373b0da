import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import type { Journal } from '../../journal/journal.js';
import { MOVED_SUFFIX, moveLegacyDiscordState } from '../../journal/move-legacy-discord-state.js';
import { openPostgresJournal } from '../../journal/postgres/postgres-journal.js';
import { openSqliteJournal } from '../../journal/sqlite/sqlite-journal.js';
import {
  skipWithoutPostgres,
  startPostgres,
  type TestPostgres,
} from '../../journal/test-support/start-postgres.js';
import { createLogger } from '../../logging/logger.js';
import { DiscordState } from './discord-state.js';
import { writeLegacyDiscordFile } from './test-support/legacy-discord-file.js';

const logger = createLogger({ level: 'silent' });

describe('Discord state in the journal', () => {
  let dir = '';
  let journal: Journal;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mp-discord-state-'));
    journal = openSqliteJournal(dir);
  });
  afterEach(async () => {
    await journal.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('threads keep their kind: only public ones are readable through their parent; a parent drop takes them', async () => {
    const state = await DiscordState.load(journal.discord, 'mythos');
    await state.noteThread('t-public', 'general', true);
    await state.noteThread('t-private', 'general', false);
    await state.noteThread('t-old', 'general');
    await state.noteThread('t-secret', 'secret', true);
    // An unknown kind never hides a known one; a kind learnt later is kept.
    await state.noteThread('t-public', 'general');
    await state.noteThread('t-old', 'general', true);
    for (const read of [state, await DiscordState.load(journal.discord, 'mythos')]) {
      const byParent = [...read.publicThreadsByParent()].map(([parent, threads]) => [parent, threads.sort()]);
      assert.deepEqual(Object.fromEntries(byParent), {
        general: ['t-old', 't-public'],
        secret: ['t-secret'],
      });
      assert.deepEqual(read.threadsOf('general').sort(), ['t-old', 't-private', 't-public']);
      assert.equal(read.parentOf('t-secret'), 'secret');
    }
    await state.dropThreads(['t-public', 'secret']);
    for (const read of [state, await DiscordState.load(journal.discord, 'mythos')]) {
      assert.deepEqual(Object.fromEntries(read.publicThreadsByParent()), { general: ['t-old'] });
      assert.deepEqual(read.threadsOf('secret'), []);
    }
  });

  test('an opt-out, a rule and a forget apply at once and are read back by the next connection', async () => {
    const state = await DiscordState.load(journal.discord, 'mythos');
    const optOut = state.setOptedOut('ana', true, 1);
    assert.ok(state.isOptedOut('ana'), 'in force before the write resolves');
    assert.equal(await optOut, true);
    await state.setChannelRule('offtopic', 'allow');
    await state.noteForgotten('channel', 'secret', 50);
    await state.markBackfilled('general', 2);
    const other = openSqliteJournal(dir);
    try {
      const read = await DiscordState.load(other.discord, 'mythos');
      assert.ok(read.isOptedOut('ana'));
      assert.deepEqual([...read.channelRules()], [['offtopic', 'allow']]);
      assert.ok(read.hasBackfilled('general'));
      assert.ok(read.wasForgotten('sam', ['t1', 'secret'], 50));
      assert.ok(!read.wasForgotten('sam', ['t1', 'secret'], 51), 'written after the forget');
      assert.ok(!(await DiscordState.load(other.discord, 'another-bot')).isOptedOut('ana'));
    } finally {
      await other.close();
    }
  });

  test('an older discord.sqlite is moved in once: every row kept, the file renamed, a second run changes nothing', () =>
    checkLegacyMove(dir, journal));
});

// A replica upgraded from a one-box setup reads discord.sqlite from its dataDir on Postgres too.
describe('Discord state in a Postgres journal', { skip: skipWithoutPostgres }, () => {
  let server: TestPostgres;
  let dir = '';
  before(async () => {
    server = await startPostgres();
  });
  after(() => server?.stop());
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mp-discord-state-pg-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('an older discord.sqlite in dataDir is moved into the Postgres journal once, as into SQLite', async () => {
    const journal = await openPostgresJournal(await server.createDatabase('legacy_move'));
    try {
      await checkLegacyMove(dir, journal);
    } finally {
      await journal.close();
    }
  });
});

/** Moves an older discord.sqlite from `dir` into `journal`, twice (a crash before the rename), and checks it. */
async function checkLegacyMove(dir: string, journal: Journal): Promise<void> {
  writeLegacyDiscordFile(dir, true);
  await moveLegacyDiscordState(dir, journal, logger);
  assert.ok(!existsSync(join(dir, 'discord.sqlite')));
  assert.ok(existsSync(join(dir, `discord.sqlite${MOVED_SUFFIX}`)));
  const state = await DiscordState.load(journal.discord, 'mythos');
  assert.ok(state.isOptedOut('ana'));
  assert.deepEqual(Object.fromEntries(state.channelRules()), { offtopic: 'allow', secret: 'deny' });
  assert.ok(state.hasBackfilled('general'));
  assert.ok(state.wasForgotten('sam', [], 100));
  assert.deepEqual(Object.fromEntries(state.publicThreadsByParent()), { general: ['t-public'] });
  assert.deepEqual(state.threadsOf('general').sort(), ['t-old', 't-public']);
  assert.ok((await DiscordState.load(journal.discord, 'other')).isOptedOut('bo'));

  // A crash after the copy and before the rename: the file is read again, and a rule set since is kept.
  await state.setChannelRule('secret', 'allow');
  writeLegacyDiscordFile(dir, false);
  await moveLegacyDiscordState(dir, journal, logger);
  const read = await DiscordState.load(journal.discord, 'mythos');
  assert.deepEqual(Object.fromEntries(read.channelRules()), { offtopic: 'allow', secret: 'allow' });
  assert.deepEqual(
    (await journal.discord.readState('mythos')).optedOut,
    ['ana'],
    'no opt-out doubled or lost',
  );
  assert.deepEqual(read.threadsOf('general').sort(), ['t-old', 't-public']);
}
