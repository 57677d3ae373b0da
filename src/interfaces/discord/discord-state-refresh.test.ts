/** @module Regression (review s24, finding 2): the holder obeys opt-outs another replica wrote to the journal. */

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { moveLegacyDiscordState } from '../../journal/move-legacy-discord-state.js';
import { openSqliteJournal } from '../../journal/sqlite/sqlite-journal.js';
import { createLogger } from '../../logging/logger.js';
import { DiscordState } from './discord-state.js';
import { writeLegacyDiscordFile } from './test-support/legacy-discord-file.js';

const logger = createLogger({ level: 'silent' });

test('a legacy discord.sqlite moved in by a non-holder replica: the holder obeys its opt-outs after a refresh', async () => {
  const shared = mkdtempSync(join(tmpdir(), 'mp-refresh-j-'));
  const other = mkdtempSync(join(tmpdir(), 'mp-refresh-o-'));
  const journal = openSqliteJournal(shared);
  try {
    const holderState = await DiscordState.load(journal.discord, 'mythos'); // The holder connected first.
    writeLegacyDiscordFile(other, true); // The old one-box replica's dataDir, started second.
    await moveLegacyDiscordState(other, journal, logger);
    assert.equal((await journal.discord.readState('mythos')).optedOut.includes('ana'), true);
    await holderState.refresh(); // What each gateway-lease renewal does.
    assert.equal(
      holderState.isOptedOut('ana'),
      true,
      'ana opted out (in the journal) yet the holder records her',
    );
  } finally {
    await journal.close();
    rmSync(shared, { recursive: true, force: true });
    rmSync(other, { recursive: true, force: true });
  }
});
