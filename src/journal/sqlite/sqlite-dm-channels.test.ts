/**
 * @module The read by user id every linked DM recall makes (a person's DM channels) searches the user index, not
 * every message of the bot (which SQLite, with no statistics, chose: it grew with the bot's whole history).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { openSqliteJournal } from './sqlite-journal.js';
import { DM_CHANNELS_SQL } from './sqlite-people.js';

describe('the read by user id of a linked DM recall', () => {
  let dir: string;
  let db: Database.Database;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'memory-pool-user-index-'));
    const journal = openSqliteJournal(dir);
    const dm = { bot: 'mythos', source: 'hermes', isDm: true, speakerKind: 'user' as const, text: 'hi' };
    await journal.recordMessages(
      [
        { ...dm, messageId: 'm1', ts: 1, channelId: 'tg-anna', userId: 'telegram:5678' },
        { ...dm, messageId: 'm2', ts: 2, channelId: 'tg-bob', userId: 'telegram:9' },
      ],
      1,
    );
    assert.deepEqual(await journal.people.dmChannels('mythos', [{ kind: 'user', value: 'telegram:5678' }]), [
      { source: 'hermes', channelId: 'tg-anna' },
    ]);
    await journal.close();
    db = new Database(join(dir, 'journal.sqlite'), { readonly: true });
  });
  after(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const planOf = (sql: string) =>
    (
      db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all('mythos', 'telegram:5678', null, null, null, null) as {
        detail: string;
      }[]
    )
      .map((step) => step.detail)
      .join('; ');

  test('a person’s DM channels', () => {
    assert.match(planOf(DM_CHANNELS_SQL), /USING INDEX messages_by_user \(bot=\? AND user_id=\?\)/);
  });
});
