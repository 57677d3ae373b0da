import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { testBot } from '../config/test-support/test-bot.js';
import { startTestService, type TestService } from '../service/test-support/start-test-service.js';
import { toJournalError } from './journal-health.js';
import { applyJournalSchema } from './journal-schema.js';
import { MessageJournal } from './message-journal.js';
import { applyClaimTables } from './sqlite/sqlite-claims.js';
import { SqliteJournal } from './sqlite/sqlite-journal.js';

test('SQLite failures that mean "cannot write" map to journal_unavailable; others do not', () => {
  const sqliteError = (code: string) => new BetterSqlite3.SqliteError('failed', code);
  for (const code of [
    'SQLITE_FULL',
    'SQLITE_IOERR',
    'SQLITE_IOERR_WRITE',
    'SQLITE_READONLY',
    'SQLITE_CANTOPEN',
  ]) {
    const mapped = toJournalError(sqliteError(code));
    assert.equal(mapped?.code, 'journal_unavailable', code);
    assert.equal(mapped.status, 503);
    assert.equal(mapped.retryable, true);
  }
  assert.match(toJournalError(sqliteError('SQLITE_FULL'))!.message, /disk under dataDir is full/);
  assert.equal(toJournalError(sqliteError('SQLITE_CONSTRAINT_PRIMARYKEY')), undefined);
  assert.equal(toJournalError(new Error('SQLITE_FULL')), undefined);
});

describe('a journal whose disk is full', () => {
  let service: TestService;
  let db: Database;
  const dir = mkdtempSync(join(tmpdir(), 'memory-pool-journal-full-'));
  before(async () => {
    db = new BetterSqlite3(join(dir, 'journal.sqlite'));
    db.pragma('journal_mode = WAL');
    applyJournalSchema(db);
    applyClaimTables(db);
    service = await startTestService({
      // Chunks would be planned at 1,000,000 characters: the writer stays out of the way.
      bots: [testBot('mythos', { chunk: { minChars: 1_000_000, maxChars: 1_000_000, idleMs: 3_600_000 } })],
      journal: new SqliteJournal(db, new MessageJournal(db)),
    });
  });
  after(async () => {
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const save = (id: string) =>
    service.post('/save', {
      bot: 'mythos',
      messages: [{ speaker_kind: 'user', text: `${id} ${'long story '.repeat(1000)}`, message_id: id }],
    });
  const ready = async () => {
    const response = await fetch(`${service.url}/ready`);
    return {
      status: response.status,
      body: (await response.json()) as { checks: Record<string, { ok: boolean; error?: string }> },
    };
  };

  test('/save answers 503 journal_unavailable, /ready turns 503, and both recover without a restart', async () => {
    assert.equal((await save('before')).status, 200);
    // SQLite's own quota: no page beyond the ones in use, exactly what a full disk looks like to it.
    db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true })}`);

    const refused = await save('during');
    assert.equal(refused.status, 503);
    assert.equal(refused.json.error.code, 'journal_unavailable');
    assert.match(refused.json.error.message, /disk under dataDir is full/);
    const notReady = await ready();
    assert.equal(notReady.status, 503);
    assert.equal(notReady.body.checks.journal?.ok, false);
    assert.match(notReady.body.checks.journal?.error ?? '', /journal cannot be written/);
    assert.equal(notReady.body.checks.store?.ok, true);

    db.pragma('max_page_count = 1073741823');
    const recovered = await ready();
    assert.equal(recovered.status, 200, 'the probe write succeeds once there is room');
    assert.deepEqual((await save('during')).json, {
      ok: true,
      accepted: 1,
      duplicates: 0,
      edited: 0,
      forgotten: 0,
    });
    const counts = (await (await fetch(`${service.url}/bots/mythos/stats`)).json()) as {
      messages: { bySource: Record<string, number> };
    };
    assert.deepEqual(counts.messages.bySource, { api: 2 }, 'the refused save left nothing behind');
  });
});
