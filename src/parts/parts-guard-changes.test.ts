/** @module A replica's parts guard forgets its checks when another replica changes parts-index state. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import type { Journal, JournalTopic } from '../journal/journal.js';
import { openSqliteJournal } from '../journal/sqlite/sqlite-journal.js';
import { createMemoryPointStore } from '../store/test-support/memory-point-store.js';
import { createPartsGuard, followPartsChanges } from './parts-guard.js';

let dir: string;
let journal: Journal;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'parts-guard-changes-'));
  journal = openSqliteJournal(dir);
});
afterEach(async () => {
  await journal.close();
  rmSync(dir, { recursive: true, force: true });
});

test('parts another replica dropped are made again by the next write here once the change is announced', async () => {
  const store = createMemoryPointStore();
  await store.createCollection('mem_a', 64);
  const guard = createPartsGuard(store, journal);
  await guard.ensureParts('mem_a', 'hashing:v1', 64);
  // Another replica dropped the parts (its collection was deleted and made again there).
  await store.deleteCollection('mem_a__parts');
  await guard.ensureParts('mem_a', 'hashing:v1', 64);
  assert.equal(await store.describeCollection('mem_a__parts'), undefined, 'the check is cached until told');

  const listeners: ((topic: JournalTopic) => void)[] = [];
  const changes = {
    watch(listener: (topic: JournalTopic) => void) {
      listeners.push(listener);
      return () => void listeners.pop();
    },
  };
  const unwatch = followPartsChanges({ changes }, guard);
  for (const listener of listeners) listener('routes');
  await guard.ensureParts('mem_a', 'hashing:v1', 64);
  assert.equal(
    await store.describeCollection('mem_a__parts'),
    undefined,
    'a route change leaves parts checks be',
  );
  for (const listener of listeners) listener('parts-indexes');
  await guard.ensureParts('mem_a', 'hashing:v1', 64);
  assert.ok(await store.describeCollection('mem_a__parts'), 'checked again, and made again');
  unwatch();
  assert.equal(listeners.length, 0);
});
