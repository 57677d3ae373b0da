/** @module Regression (review s24, finding 4): two replicas sharing a dataDir move discord.sqlite at once and both start. */

import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { writeLegacyDiscordFile } from '../interfaces/discord/test-support/legacy-discord-file.js';
import { createLogger } from '../logging/logger.js';
import { MOVED_SUFFIX, moveLegacyDiscordState } from './move-legacy-discord-state.js';
import { openSqliteJournal } from './sqlite/sqlite-journal.js';

test('two replicas moving one discord.sqlite at once: both start, the rows are in, the file is renamed', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mp-move-'));
  const j1 = openSqliteJournal(dir);
  const j2 = openSqliteJournal(dir);
  const warnings: unknown[] = [];
  const logger = createLogger({ level: 'silent' });
  logger.warn = ((...args: unknown[]) => void warnings.push(args)) as typeof logger.warn;
  try {
    writeLegacyDiscordFile(dir, true);
    const results = await Promise.allSettled([
      moveLegacyDiscordState(dir, j1, logger),
      moveLegacyDiscordState(dir, j2, logger),
    ]);
    assert.deepEqual(
      results.filter((r) => r.status === 'rejected'),
      [],
      'a replica failed to start',
    );
    assert.deepEqual(warnings, [], 'a move failed (logged as a warning)');
    assert.equal(existsSync(join(dir, `discord.sqlite${MOVED_SUFFIX}`)), true);
    assert.equal((await j2.discord.readState('mythos')).optedOut.includes('ana'), true);
  } finally {
    await j1.close();
    await j2.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a move that fails is a warning, not a failed start, and keeps the file for the next start', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mp-move-bad-'));
  const journal = openSqliteJournal(dir);
  const warnings: unknown[] = [];
  const logger = createLogger({ level: 'silent' });
  logger.warn = ((...args: unknown[]) => void warnings.push(args)) as typeof logger.warn;
  try {
    writeFileSync(join(dir, 'discord.sqlite'), 'not a database, but not to be thrown away either');
    await moveLegacyDiscordState(dir, journal, logger);
    assert.equal(warnings.length, 1);
    assert.equal(existsSync(join(dir, 'discord.sqlite')), true);
  } finally {
    await journal.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
