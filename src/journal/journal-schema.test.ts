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
        assert.match(error.message, /schema 99, this build knows 3\); upgrade memory-pool/);
        return true;
      },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a journal at schema 1 is upgraded to 3 on open: the Discord and people tables are added, its rows kept', () => {
  const dir = mkdtempSync(join(tmpdir(), 'journal-schema-'));
  try {
    const journal = openMessageJournal(dir);
    journal.recordMessages(
      [{ bot: 'b', source: 'api', messageId: 'm1', speakerKind: 'user', text: 't', ts: 1 }],
      1,
    );
    journal.close();
    // What a schema-1 build left.
    const db = new BetterSqlite3(join(dir, 'journal.sqlite'));
    db.exec(`DROP TABLE discord_opt_outs; DROP TABLE discord_channel_rules; DROP TABLE discord_backfilled;
      DROP TABLE discord_forgotten_before; DROP TABLE discord_threads; DROP TABLE discord_gateway;
      DROP TABLE people; DROP TABLE person_accounts; DROP TABLE link_codes; DROP TABLE link_failures`);
    db.pragma('user_version = 1');
    db.close();
    openMessageJournal(dir).close();
    const reopened = new BetterSqlite3(join(dir, 'journal.sqlite'));
    try {
      assert.equal(reopened.pragma('user_version', { simple: true }), 3);
      assert.equal(
        (
          reopened
            .prepare(
              "SELECT COUNT(*) AS n FROM sqlite_master WHERE name IN ('people', 'person_accounts', 'link_codes', 'link_failures')",
            )
            .get() as { n: number }
        ).n,
        4,
      );
      assert.equal(
        (
          reopened.prepare("SELECT COUNT(*) AS n FROM sqlite_master WHERE name LIKE 'discord_%'").get() as {
            n: number;
          }
        ).n,
        6,
      );
      assert.equal((reopened.prepare('SELECT COUNT(*) AS n FROM messages').get() as { n: number }).n, 1);
    } finally {
      reopened.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
