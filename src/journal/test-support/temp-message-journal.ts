/** @module A fresh MessageJournal (the SQLite backend's inside, for the tests that pin it) in a temporary folder for each test of the describe block that calls it. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'node:test';
import { type MessageJournal, openMessageJournal } from '../message-journal.js';

export interface TempMessageJournal {
  /** This test's journal. */
  readonly journal: MessageJournal;
  /** Closes it and opens the same folder again (what a restart reads). */
  reopen(): void;
}

/** Registers the hooks that open a journal before each test and delete it after. */
export function useTempMessageJournal(): TempMessageJournal {
  let dir = '';
  let journal: MessageJournal | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'memory-pool-journal-'));
    journal = openMessageJournal(dir);
  });
  afterEach(() => {
    journal?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    get journal() {
      if (journal === undefined) throw new Error('useTempMessageJournal: the journal opens before each test');
      return journal;
    },
    reopen() {
      journal?.close();
      journal = openMessageJournal(dir);
    },
  };
}
