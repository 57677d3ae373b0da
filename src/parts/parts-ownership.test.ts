/** @module Which `x__parts` collections start-up and doctor treat as memory-pool's parts of a deleted collection. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import type { Journal } from '../journal/journal.js';
import { openSqliteJournal } from '../journal/sqlite/sqlite-journal.js';
import { createMemoryPointStore } from '../store/test-support/memory-point-store.js';
import { dropOrphanParts, findOrphanParts } from './drop-orphan-parts.js';
import { createPartsGuard } from './parts-guard.js';

let dir: string;
let journal: Journal;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'parts-ownership-'));
  journal = openSqliteJournal(dir);
});
afterEach(async () => {
  await journal.close();
  rmSync(dir, { recursive: true, force: true });
});

test('only parts this journal recorded, with the parts layout, are dropped; the rest is listed and kept', async () => {
  const store = createMemoryPointStore();
  await store.createHybridCollection('mem_gone__parts', 64); // memory-pool's, collection deleted
  await journal.partsIndexes.recordStarted('mem_gone', true, Date.now());
  await store.createHybridCollection('rag_docs__parts', 64); // another app's, never recorded
  await store.createCollection('mem_flat__parts', 64); // recorded by name, but not laid out as parts
  await journal.recordCollectionModel('mem_flat__parts', 'hashing:v1', 64, Date.now());
  assert.deepEqual(await findOrphanParts(store, journal), {
    owned: ['mem_gone'],
    unknown: ['rag_docs__parts', 'mem_flat__parts'],
  });
  const dropped = await dropOrphanParts(store, journal, createPartsGuard(store, journal));
  assert.deepEqual(dropped, ['mem_gone']);
  assert.deepEqual((await store.listCollections()).sort(), ['mem_flat__parts', 'rag_docs__parts']);
});

test("a bot's own collection is never parts, whatever its name and whatever the journal recorded", async () => {
  const store = createMemoryPointStore();
  await store.createHybridCollection('notes__parts', 64);
  await journal.recordCollectionModel('notes__parts', 'hashing:v1', 64, Date.now());
  await journal.partsIndexes.recordStarted('notes', true, Date.now());
  const dropped = await dropOrphanParts(store, journal, createPartsGuard(store, journal), ['notes__parts']);
  assert.deepEqual(dropped, []);
  assert.deepEqual(await store.listCollections(), ['notes__parts']);
});
