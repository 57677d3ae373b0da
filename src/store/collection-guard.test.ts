import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { StoreError } from '../errors/memory-pool-error.js';
import { type MessageJournal, openMessageJournal } from '../journal/message-journal.js';
import type { CollectionShape, PointStore } from './point-store.js';
import { createCollectionGuard } from './collection-guard.js';

let dir: string;
let journal: MessageJournal;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'guard-'));
  journal = openMessageJournal(dir);
});
afterEach(() => {
  journal.close();
  rmSync(dir, { recursive: true, force: true });
});

function storeWith(shape: CollectionShape | undefined) {
  const created: number[] = [];
  const store = {
    describeCollection: async () => shape,
    createCollection: async (_name: string, size: number) => {
      created.push(size);
    },
  } as unknown as PointStore;
  return { store, created };
}

const refusal = (pattern: RegExp) => (error: unknown) =>
  error instanceof StoreError && error.code === 'collection_incompatible' && pattern.test(error.message);

test('a missing collection is created with the embedder dimension on write, but not on read', async () => {
  const { store, created } = storeWith(undefined);
  const guard = createCollectionGuard(store, journal);
  assert.equal(await guard.checkReadable('mem_a', 'hashing:v1', 64), false);
  assert.deepEqual(created, []);
  await guard.ensureCollection('mem_a', 'hashing:v1', 64);
  assert.deepEqual(created, [64]);
});

test('a collection of another dimension or with named vectors is refused with the fix', async () => {
  const wrongSize = createCollectionGuard(
    storeWith({ vectorSize: 3072, distance: 'Cosine', namedVectors: [], pointsCount: 5 }).store,
    journal,
  );
  await assert.rejects(
    wrongSize.ensureCollection('mem_st', 'offline:use-lite-512', 512),
    refusal(/3072-dimensional.*512-dimensional.*same model as st-qdrant-memory/),
  );
  const named = createCollectionGuard(
    storeWith({ vectorSize: undefined, distance: undefined, namedVectors: ['dense'], pointsCount: 0 }).store,
    journal,
  );
  await assert.rejects(named.checkReadable('mem_n', 'm', 8), refusal(/named vectors \(dense\)/));
});

test("st-qdrant-memory's hybrid fork layout is accepted when its dense vector fits, refused when it does not", async () => {
  const hybrid = (size: number): CollectionShape => ({
    vectorSize: undefined,
    distance: undefined,
    namedVectors: ['dense'],
    namedVectorSizes: { dense: size },
    sparseVectors: { bm25: 'idf' },
    pointsCount: 2,
  });
  const { store, created } = storeWith(hybrid(64));
  await createCollectionGuard(store, journal).ensureCollection('mem_h', 'hashing:v1', 64);
  assert.deepEqual(created, [], 'an existing hybrid collection is used, never recreated');
  await assert.rejects(
    createCollectionGuard(storeWith(hybrid(3072)).store, journal).checkReadable('mem_h2', 'm', 64),
    refusal(/3072-dimensional "dense" vectors.*64-dimensional/),
  );
});

test('a collection memory-pool wrote with one model is refused to another model of the same size', async () => {
  const shape = { vectorSize: 512, distance: 'Cosine', namedVectors: [], pointsCount: 3 };
  await createCollectionGuard(storeWith(shape).store, journal).ensureCollection(
    'mem_m',
    'offline:use-lite-512',
    512,
  );
  const other = createCollectionGuard(storeWith(shape).store, journal);
  await assert.rejects(
    other.ensureCollection('mem_m', 'openai-compatible:some-512-model', 512),
    refusal(/written by memory-pool with the embedding model offline:use-lite-512/),
  );
});

test('a collection is prepared (the timeline index) on its first write only: never by a read, again after invalidate', async () => {
  const shape = { vectorSize: 64, distance: 'Cosine', namedVectors: [], pointsCount: 3 };
  const prepared: string[] = [];
  const guard = createCollectionGuard(storeWith(shape).store, journal, {
    prepare: async (collection, seen) => void prepared.push(`${collection}:${seen?.pointsCount ?? 'new'}`),
  });
  await guard.checkReadable('mem_p', 'hashing:v1', 64);
  assert.equal(prepared.length, 0, 'a read does not prepare');
  await guard.ensureCollection('mem_p', 'hashing:v1', 64);
  await guard.ensureCollection('mem_p', 'hashing:v1', 64);
  assert.deepEqual(prepared, ['mem_p:3']);
  guard.invalidate('mem_p');
  await guard.ensureCollection('mem_p', 'hashing:v1', 64);
  assert.deepEqual(prepared, ['mem_p:3', 'mem_p:3']);
  const fresh = createCollectionGuard(storeWith(undefined).store, journal, {
    prepare: async (collection, seen) => void prepared.push(`${collection}:${seen?.pointsCount ?? 'new'}`),
  });
  await fresh.ensureCollection('mem_new', 'hashing:v1', 64);
  assert.deepEqual(prepared.at(-1), 'mem_new:new');
});
