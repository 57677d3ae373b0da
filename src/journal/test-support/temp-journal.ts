/** @module A fresh journal (the SQLite Journal port) in a temporary folder for each test of the describe block that calls it. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'node:test';
import type { Journal } from '../journal.js';
import { openSqliteJournal } from '../sqlite/sqlite-journal.js';

export interface TempJournal {
  /** This test's journal. */
  readonly journal: Journal;
  /** This test's folder (a second connection to the same journal opens it). */
  readonly dir: string;
  /** Closes it and opens the same folder again (what a restart reads). */
  reopen(): Promise<void>;
}

/** Registers the hooks that open a journal before each test and delete it after. */
export function useTempJournal(): TempJournal {
  let dir = '';
  let journal: Journal | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'memory-pool-journal-'));
    journal = openSqliteJournal(dir);
  });
  afterEach(async () => {
    await journal?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    get journal() {
      if (journal === undefined) throw new Error('useTempJournal: the journal opens before each test');
      return journal;
    },
    get dir() {
      return dir;
    },
    async reopen() {
      await journal?.close();
      journal = openSqliteJournal(dir);
    },
  };
}
