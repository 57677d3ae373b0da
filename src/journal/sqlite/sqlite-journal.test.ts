import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeJournalContract } from '../test-support/journal-contract.js';
import { openSqliteJournal } from './sqlite-journal.js';

describeJournalContract('SQLite (two connections to one file)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'memory-pool-journal-'));
  return {
    connect: async () => openSqliteJournal(dir),
    close: () => rm(dir, { recursive: true, force: true }),
  };
});
