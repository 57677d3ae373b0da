import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { StoreError } from '../errors/memory-pool-error.js';
import type { Journal } from '../journal/journal.js';
import { openSqliteJournal } from '../journal/sqlite/sqlite-journal.js';
import {
  createMemoryPointStore,
  type MemoryCollectionLayout,
} from '../store/test-support/memory-point-store.js';
import { createPartsGuard } from './parts-guard.js';

let dir: string;
let journal: Journal;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'parts-guard-'));
  journal = openSqliteJournal(dir);
});
afterEach(async () => {
  await journal.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The in-memory store, with `earlierChunks` memory-pool chunks already in `collection`, and `parts` as given. */
async function storeWith(collection: string, parts: MemoryCollectionLayout | undefined, earlierChunks = 0) {
  const store = createMemoryPointStore();
  await store.createCollection(collection, 64);
  await store.upsertPoints(
    collection,
    Array.from({ length: earlierChunks }, (_, i) => ({
      id: i + 1,
      vector: new Array(64).fill(1),
      payload: { source: 'api' },
    })),
  );
  if (parts) await store.createCollectionWithLayout(`${collection}__parts`, parts);
  return store;
}
const partsLayout = (dense: number): MemoryCollectionLayout => ({
  vectors: { dense },
  sparseVectors: { bm25: 'idf' },
});
const refused = (error: unknown) => error instanceof StoreError && error.code === 'collection_incompatible';

test('the parts collection is created on first write with the embedder dimension, and is then usable', async () => {
  const store = await storeWith('mem_a', undefined);
  const guard = createPartsGuard(store, journal);
  assert.equal(await guard.checkPartsUsable('mem_a', 'hashing:v1', 64), false, 'reads never create');
  assert.equal(await store.describeCollection('mem_a__parts'), undefined);
  await guard.ensureParts('mem_a', 'hashing:v1', 64);
  const parts = await store.describeCollection('mem_a__parts');
  assert.deepEqual([parts?.namedVectorSizes, parts?.sparseVectors], [{ dense: 64 }, { bm25: 'idf' }]);
  assert.equal(await guard.checkPartsUsable('mem_a', 'hashing:v1', 64), true);
});

test('an index started beside chunks memory-pool stored earlier is not usable until a reindex completes it', async () => {
  const store = await storeWith('mem_b', undefined, 3);
  await createPartsGuard(store, journal).ensureParts('mem_b', 'hashing:v1', 64);
  const later = createPartsGuard(store, journal);
  assert.equal(await later.checkPartsUsable('mem_b', 'hashing:v1', 64), false);
  await journal.partsIndexes.markComplete('mem_b', Date.now());
  assert.equal(await later.checkPartsUsable('mem_b', 'hashing:v1', 64), true);
});

test('parts of another model, another dimension or another layout are refused with the fix', async () => {
  const store = await storeWith('mem_c', undefined);
  await createPartsGuard(store, journal).ensureParts('mem_c', 'hashing:v1', 64);
  const other = createPartsGuard(store, journal);
  await assert.rejects(other.checkPartsUsable('mem_c', 'openai:large', 64), refused);
  await assert.rejects(other.ensureParts('mem_c', 'openai:large', 64), refused);
  const wrongSize = createPartsGuard(await storeWith('mem_e', partsLayout(32)), journal);
  await assert.rejects(wrongSize.ensureParts('mem_e', 'hashing:v1', 64), refused);
  const plain = createPartsGuard(await storeWith('mem_d', { vectors: 64 }), journal);
  await assert.rejects(plain.ensureParts('mem_d', 'hashing:v1', 64), /reindex/);
});

/** A store whose `collection` is gone while its parts (one part, from a write before the delete) stay. */
async function orphanedParts(collection: string, hooks: Parameters<typeof createMemoryPointStore>[0] = {}) {
  const store = createMemoryPointStore(hooks);
  await store.createHybridCollection(`${collection}__parts`, 64);
  // As the parts guard records parts it created or checked: only such parts are memory-pool's to delete.
  await journal.recordCollectionModel(`${collection}__parts`, 'hashing:v1', 64, Date.now());
  await store.upsertHybridPoints(`${collection}__parts`, [
    {
      id: 1,
      dense: new Array(64).fill(1),
      sparse: { indices: [1], values: [1] },
      payload: { text: 'deleted' },
    },
  ]);
  return store;
}

test('the parts of a collection that is gone are deleted, and the next index starts afresh', async () => {
  const store = await orphanedParts('mem_f');
  await journal.partsIndexes.recordStarted('mem_f', false, Date.now());
  const guard = createPartsGuard(store, journal);
  assert.equal(await guard.dropIfCollectionGone('mem_f'), true);
  assert.equal(await store.describeCollection('mem_f__parts'), undefined);
  assert.equal(
    await journal.partsIndexes.isComplete('mem_f'),
    undefined,
    'the old index’s state went with it',
  );
  assert.equal(await guard.dropIfCollectionGone('mem_f'), false, 'nothing left to delete');
});

test('a collection that exists, or that a reembed is building, keeps its parts', async () => {
  const store = await orphanedParts('mem_g');
  await store.createCollection('mem_g', 64);
  assert.equal(await createPartsGuard(store, journal).dropIfCollectionGone('mem_g'), false);
  assert.equal(store.heldPoints('mem_g__parts').length, 1);
  const building = await orphanedParts('mem_h__m0123abcd');
  await journal.routes.beginReembed('mem_h', 'mem_h', 'mem_h__m0123abcd', '{}', Date.now());
  assert.equal(await createPartsGuard(building, journal).dropIfCollectionGone('mem_h__m0123abcd'), false);
  assert.equal(building.heldPoints('mem_h__m0123abcd__parts').length, 1);
});

test('a first write racing a drop keeps the parts it writes', async () => {
  let releaseDelete: () => void = () => undefined;
  let deleteReached: () => void = () => undefined;
  const reached = new Promise<void>((resolve) => {
    deleteReached = resolve;
  });
  // The drop has seen the collection missing and is about to delete the parts when the first write begins.
  const store = await orphanedParts('mem_i', {
    beforeCall: async ({ method }) => {
      if (method !== 'deleteCollection') return;
      deleteReached();
      await new Promise<void>((resolve) => {
        releaseDelete = resolve;
      });
    },
  });
  const guard = createPartsGuard(store, journal);
  const dropping = guard.dropIfCollectionGone('mem_i');
  await reached;
  const writing = (async () => {
    await store.createCollection('mem_i', 64); // the chunk writer creates the collection before its parts
    await guard.ensureParts('mem_i', 'hashing:v1', 64);
    await store.upsertHybridPoints('mem_i__parts', [
      {
        id: 2,
        dense: new Array(64).fill(1),
        sparse: { indices: [2], values: [1] },
        payload: { text: 'fresh' },
      },
    ]);
  })();
  // Give the write every chance to run ahead of the delete before letting the delete go.
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
  releaseDelete();
  await Promise.all([dropping, writing]);
  assert.deepEqual(
    store.heldPoints('mem_i__parts').map((p) => p.payload.text),
    ['fresh'],
  );
  // The fresh parts were started beside an empty collection: the drop's "incomplete" must not stick to them.
  assert.equal(await journal.partsIndexes.isComplete('mem_i'), true);
});

test('parts memory-pool never recorded as its own (another app on the same Qdrant) are never deleted', async () => {
  const store = createMemoryPointStore();
  await store.createHybridCollection('rag_docs__parts', 64);
  assert.equal(await createPartsGuard(store, journal).dropIfCollectionGone('rag_docs'), false);
  assert.notEqual(await store.describeCollection('rag_docs__parts'), undefined);
});

test('a drop forgets the parts’ model: a new index may use another model', async () => {
  const store = await orphanedParts('mem_j');
  assert.equal(await createPartsGuard(store, journal).dropIfCollectionGone('mem_j'), true);
  assert.equal(await journal.collectionModel('mem_j__parts'), undefined);
  await store.createCollection('mem_j', 64);
  await createPartsGuard(store, journal).ensureParts('mem_j', 'openai:large', 64);
  assert.equal((await journal.collectionModel('mem_j__parts'))?.model, 'openai:large');
});

test('a recall check queued before a drop does not leave the dropped parts cached as there', async () => {
  const store = await orphanedParts('mem_k');
  const guard = createPartsGuard(store, journal);
  const recall = guard.checkPartsUsable('mem_k', 'hashing:v1', 64);
  const drop = guard.dropIfCollectionGone('mem_k');
  await Promise.all([recall, drop]);
  assert.equal(await store.describeCollection('mem_k__parts'), undefined);
  await store.createCollection('mem_k', 64); // the next write creates the collection, then its parts
  await guard.ensureParts('mem_k', 'hashing:v1', 64);
  assert.notEqual(
    await store.describeCollection('mem_k__parts'),
    undefined,
    'the write has parts to write to',
  );
});
