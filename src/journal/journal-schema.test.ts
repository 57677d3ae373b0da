import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { isMemoryPoolError } from '../errors/memory-pool-error.js';
import { openMessageJournal } from './message-journal.js';
import { openSqliteJournal } from './sqlite/sqlite-journal.js';

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
        assert.match(error.message, /schema 99, this build knows 4\); upgrade memory-pool/);
        return true;
      },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a journal at schema 1 is upgraded to 4 on open: the Discord, people and rename tables are added, its rows kept', () => {
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
      DROP TABLE people; DROP TABLE person_accounts; DROP TABLE link_codes; DROP TABLE link_failures;
      DROP TABLE rename_requests; DROP TABLE rename_chunks; DROP INDEX messages_by_persona`);
    db.pragma('user_version = 1');
    db.close();
    openMessageJournal(dir).close();
    const reopened = new BetterSqlite3(join(dir, 'journal.sqlite'));
    try {
      assert.equal(reopened.pragma('user_version', { simple: true }), 4);
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

test('a journal at schema 3 is upgraded to 4 on open: its people and chunks kept, the next link change requests its rename', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'journal-schema-'));
  try {
    const first = openSqliteJournal(dir);
    await first.recordMessages(
      [{ bot: 'b', source: 'api', messageId: 'm1', speakerKind: 'user', text: 't', ts: 1, userId: 'x:1' }],
      1,
    );
    await first.chunks.planChunk(
      { chunkId: 'c1', bot: 'b', collection: 'col', source: 'api', messageIds: ['m1'] },
      1,
    );
    await first.chunks.markChunkStored('c1', 0, 2);
    await first.people.create('b', { id: 'p1', name: 'X', accounts: [{ kind: 'user', value: 'x:1' }] }, 3);
    await first.close();
    // What a schema-3 build left: people, no rename rows or persona index.
    const db = new BetterSqlite3(join(dir, 'journal.sqlite'));
    db.exec('DROP TABLE rename_requests; DROP TABLE rename_chunks; DROP INDEX messages_by_persona');
    db.pragma('user_version = 3');
    db.close();
    const upgraded = openSqliteJournal(dir);
    try {
      assert.equal((await upgraded.people.get('b', 'p1'))?.name, 'X');
      assert.deepEqual(await upgraded.renames.progress(), []);
      assert.equal(await upgraded.people.update('b', 'p1', { name: 'Y' }, 4), true);
      assert.deepEqual(await upgraded.renames.matchingChunks('b', [{ kind: 'user', value: 'x:1' }]), ['c1']);
      assert.deepEqual(await upgraded.renames.progress(), [{ bot: 'b', accountsWaiting: 1, chunksLeft: 0 }]);
    } finally {
      await upgraded.close();
    }
    const reopened = new BetterSqlite3(join(dir, 'journal.sqlite'));
    try {
      assert.equal(reopened.pragma('user_version', { simple: true }), 4);
      assert.ok(reopened.prepare("SELECT 1 FROM sqlite_master WHERE name = 'messages_by_persona'").get());
    } finally {
      reopened.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
