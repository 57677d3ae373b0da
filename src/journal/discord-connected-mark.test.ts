/** @module Regression (review s24, finding 6): a connected mark from a clock that ran ahead does not hide a later gap. */

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openSqliteJournal } from './sqlite/sqlite-journal.js';

test('the latest connected mark wins, even when an earlier one came from a clock ahead', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mp-mark-'));
  const journal = openSqliteJournal(dir);
  try {
    const realNow = Date.now();
    await journal.discord.markConnected('mythos', realNow + 10 * 60_000); // Replica C, clock +10 min, held earlier.
    await journal.discord.markConnected('mythos', realNow); // Replica B (right clock) held it, then died now.
    const { connectedUntil } = await journal.discord.readState('mythos');
    assert.equal(connectedUntil, realNow, "a takeover would back-fill from C's skewed mark, past B's death");
  } finally {
    await journal.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
