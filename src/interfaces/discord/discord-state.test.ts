import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { DiscordState } from './discord-state.js';

test('threads keep their kind: only public ones are readable through their parent; older rows stay unknown', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mp-discord-state-'));
  try {
    // discord.sqlite as an earlier version wrote it, before threads had a kind.
    const old = new BetterSqlite3(join(dir, 'discord.sqlite'));
    old.exec(`CREATE TABLE threads (
      bot TEXT NOT NULL, thread_id TEXT NOT NULL, parent_id TEXT NOT NULL, PRIMARY KEY (bot, thread_id));
      INSERT INTO threads VALUES ('mythos', 't-old', 'general');`);
    old.close();
    const state = DiscordState.open(dir, 'mythos');
    state.noteThread('t-public', 'general', true);
    state.noteThread('t-private', 'general', false);
    state.noteThread('t-secret', 'secret', true);
    assert.deepEqual(Object.fromEntries(state.publicThreadsByParent()), {
      general: ['t-public'],
      secret: ['t-secret'],
    });
    assert.deepEqual(state.threadsOf('general').sort(), ['t-old', 't-private', 't-public']);
    // Seen again without its kind known (an unknown is not a change), then as public.
    state.noteThread('t-public', 'general');
    state.noteThread('t-old', 'general', true);
    assert.deepEqual(state.publicThreadsByParent().get('general')?.sort(), ['t-old', 't-public']);
    // A deleted thread, and a deleted channel with its threads, are dropped.
    state.dropThreads(['t-public']);
    state.dropThreads(['secret']);
    assert.deepEqual(Object.fromEntries(state.publicThreadsByParent()), { general: ['t-old'] });
    assert.deepEqual(state.threadsOf('secret'), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
