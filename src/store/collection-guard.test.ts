import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { StoreError } from '../errors/memory-pool-error.js';
import type { Journal } from '../journal/journal.js';
import { openSqliteJournal } from '../journal/sqlite/sqlite-journal.js';
import { createMemoryPointStore, type MemoryCollectionLayout } from './test-support/memory-point-store.js';
import { createCollectionGuard } from './collection-guard.js';

let dir: string;
let journal: Journal;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'guard-'));
  journal = openSqliteJournal(dir);
});
afterEach(async () => {
  await journal.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The in-memory store, holding `existing` collections as SillyTavern (or a person) left them. */
async function storeWith(existing: Record<string, MemoryCollectionLayout> = {}) {
  const store = createMemoryPointStore();
  for (const [name, layout] of Object.entries(existing)) await store.createCollectionWithLayout(name, layout);
  return store;
}

const refusal = (pattern: RegExp) => (error: unknown) =>
  error instanceof StoreError && error.code === 'collection_incompatible' && pattern.test(error.message);

test('a missing collection is created with the embedder dimension on write, but not on read', async () => {
  const store = await storeWith();
  const guard = createCollectionGuard(store, journal);
  assert.equal(await guard.checkReadable('mem_a', 'hashing:v1', 64), false);
  assert.equal(await store.describeCollection('mem_a'), undefined);
  await guard.ensureCollection('mem_a', 'hashing:v1', 64);
  assert.equal((await store.describeCollection('mem_a'))?.vectorSize, 64);
});

test('a collection of another dimension or without a dense vector is refused with the fix', async () => {
  const wrongSize = createCollectionGuard(await storeWith({ mem_st: { vectors: 3072 } }), journal);
  await assert.rejects(
    wrongSize.ensureCollection('mem_st', 'offline:use-lite-512', 512),
    refusal(/3072-dimensional.*512-dimensional.*same model as st-qdrant-memory/),
  );
  const sparseOnly = createCollectionGuard(
    await storeWith({ mem_n: { vectors: {}, sparseVectors: { bm25: 'idf' } } }),
    journal,
  );
  await assert.rejects(sparseOnly.checkReadable('mem_n', 'm', 8), refusal(/named vectors \(none\)/));
});

test("st-qdrant-memory's hybrid fork layout is accepted when its dense vector fits, refused when it does not", async () => {
  const hybrid = (size: number): MemoryCollectionLayout => ({
    vectors: { dense: size },
    sparseVectors: { bm25: 'idf' },
  });
  const store = await storeWith({ mem_h: hybrid(64) });
  await createCollectionGuard(store, journal).ensureCollection('mem_h', 'hashing:v1', 64);
  assert.deepEqual(
    await store.listCollections(),
    ['mem_h'],
    'an existing hybrid collection is used, never recreated',
  );
  assert.deepEqual((await store.describeCollection('mem_h'))?.namedVectors, ['dense']);
  await assert.rejects(
    createCollectionGuard(await storeWith({ mem_h2: hybrid(3072) }), journal).checkReadable(
      'mem_h2',
      'm',
      64,
    ),
    refusal(/3072-dimensional "dense" vectors.*64-dimensional/),
  );
});

test('a collection memory-pool wrote with one model is refused to another model of the same size', async () => {
  const store = await storeWith({ mem_m: { vectors: 512 } });
  await createCollectionGuard(store, journal).ensureCollection('mem_m', 'offline:use-lite-512', 512);
  const other = createCollectionGuard(store, journal);
  await assert.rejects(
    other.ensureCollection('mem_m', 'openai-compatible:some-512-model', 512),
    refusal(/written by memory-pool with the embedding model offline:use-lite-512/),
  );
});

test('a collection is prepared (the timeline index) on its first write only: never by a read, again after invalidate', async () => {
  const store = await storeWith({ mem_p: { vectors: 64 } });
  for (const id of [1, 2, 3]) {
    await store.upsertPoints('mem_p', [{ id, vector: new Array(64).fill(0.1), payload: {} }]);
  }
  const prepared: string[] = [];
  const prepare = async (collection: string, seen?: { pointsCount: number }) =>
    void prepared.push(`${collection}:${seen?.pointsCount ?? 'new'}`);
  const guard = createCollectionGuard(store, journal, { prepare });
  await guard.checkReadable('mem_p', 'hashing:v1', 64);
  assert.equal(prepared.length, 0, 'a read does not prepare');
  await guard.ensureCollection('mem_p', 'hashing:v1', 64);
  await guard.ensureCollection('mem_p', 'hashing:v1', 64);
  assert.deepEqual(prepared, ['mem_p:3']);
  guard.invalidate('mem_p');
  await guard.ensureCollection('mem_p', 'hashing:v1', 64);
  assert.deepEqual(prepared, ['mem_p:3', 'mem_p:3']);
  const fresh = createCollectionGuard(await storeWith(), journal, { prepare });
  await fresh.ensureCollection('mem_new', 'hashing:v1', 64);
  assert.deepEqual(prepared.at(-1), 'mem_new:new');
});
