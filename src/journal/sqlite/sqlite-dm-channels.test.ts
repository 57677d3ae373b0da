/**
 * @module A linked person's DM channels are read through the user index, not by walking every message of the bot
 * (which SQLite, with no statistics, chose: every DM recall by a linked person then grew with the bot's history).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { openSqliteJournal } from './sqlite-journal.js';
import { DM_CHANNELS_SQL } from './sqlite-people.js';

test('the DM channels of a user id are searched by the user index', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'memory-pool-dm-channels-'));
  try {
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
    const db = new Database(join(dir, 'journal.sqlite'), { readonly: true });
    try {
      const plan = db
        .prepare(`EXPLAIN QUERY PLAN ${DM_CHANNELS_SQL}`)
        .all('mythos', 'telegram:5678', null, null) as { detail: string }[];
      assert.ok(
        plan.some((step) => step.detail.includes('USING INDEX messages_by_user (bot=? AND user_id=?)')),
        JSON.stringify(plan),
      );
    } finally {
      db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
