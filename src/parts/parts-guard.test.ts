import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { StoreError } from '../errors/memory-pool-error.js';
import { type MessageJournal, openMessageJournal } from '../journal/message-journal.js';
import {
  createMemoryPointStore,
  type MemoryCollectionLayout,
} from '../store/test-support/memory-point-store.js';
import { createPartsGuard } from './parts-guard.js';

let dir: string;
let journal: MessageJournal;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'parts-guard-'));
  journal = openMessageJournal(dir);
});
afterEach(() => {
  journal.close();
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
  journal.partsIndexes.markComplete('mem_b', Date.now());
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
