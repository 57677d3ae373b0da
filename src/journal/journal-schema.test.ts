import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { isMemoryPoolError } from '../errors/memory-pool-error.js';
import { openMessageJournal } from './message-journal.js';

test('a journal written by a newer memory-pool is refused as a config error naming dataDir and the fix', () => {
  const dir = mkdtempSync(join(tmpdir(), 'journal-schema-'));
  try {
    openMessageJournal(dir).close();
    const db = new BetterSqlite3(join(dir, 'journal.sqlite'));
    db.pragma('user_version = 99');
    db.close();
    assert.throws(
      () => openMessageJournal(dir),
      (error: unknown) => {
        assert.ok(isMemoryPoolError(error));
        assert.equal(error.code, 'config_invalid');
        assert.equal(error.field, 'dataDir');
        assert.match(error.message, /schema 99, this build knows 2\); upgrade memory-pool/);
        return true;
      },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
