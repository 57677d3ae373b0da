import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { StoreError } from '../errors/memory-pool-error.js';
import { type MessageJournal, openMessageJournal } from '../journal/message-journal.js';
import type { HybridPointStore } from '../store/hybrid-point-store.js';
import type { CollectionShape, PointStore } from '../store/point-store.js';
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

/** The slice of a store the guard calls: the parts collection's shape, a count of earlier chunks, creation. */
function storeWith(parts: CollectionShape | undefined, earlierChunks = 0) {
  const created: [string, number][] = [];
  const store = {
    describeCollection: async () => parts,
    countPoints: async () => earlierChunks,
    createHybridCollection: async (name: string, size: number) => {
      created.push([name, size]);
    },
  } as unknown as PointStore & HybridPointStore;
  return { store, created };
}
const partsShape = (dense: number): CollectionShape => ({
  vectorSize: undefined,
  distance: undefined,
  namedVectors: ['dense'],
  namedVectorSizes: { dense },
  sparseVectors: { bm25: 'idf' },
  pointsCount: 0,
});
const refused = (error: unknown) => error instanceof StoreError && error.code === 'collection_incompatible';

test('the parts collection is created on first write with the embedder dimension, and is then usable', async () => {
  const { store, created } = storeWith(undefined);
  const guard = createPartsGuard(store, journal);
  assert.equal(await guard.checkPartsUsable('mem_a', 'hashing:v1', 64), false, 'reads never create');
  await guard.ensureParts('mem_a', 'hashing:v1', 64);
  assert.deepEqual(created, [['mem_a__parts', 64]]);
  assert.equal(await guard.checkPartsUsable('mem_a', 'hashing:v1', 64), true);
});

test('an index started beside chunks memory-pool stored earlier is not usable until a reindex completes it', async () => {
  const guard = createPartsGuard(storeWith(undefined, 3).store, journal);
  await guard.ensureParts('mem_b', 'hashing:v1', 64);
  const later = createPartsGuard(storeWith(partsShape(64)).store, journal);
  assert.equal(await later.checkPartsUsable('mem_b', 'hashing:v1', 64), false);
  journal.partsIndexes.markComplete('mem_b', Date.now());
  assert.equal(await later.checkPartsUsable('mem_b', 'hashing:v1', 64), true);
});

test('parts of another model, another dimension or another layout are refused with the fix', async () => {
  await createPartsGuard(storeWith(undefined).store, journal).ensureParts('mem_c', 'hashing:v1', 64);
  const other = createPartsGuard(storeWith(partsShape(64)).store, journal);
  await assert.rejects(other.checkPartsUsable('mem_c', 'openai:large', 64), refused);
  await assert.rejects(other.ensureParts('mem_c', 'openai:large', 64), refused);
  const wrongSize = createPartsGuard(storeWith(partsShape(32)).store, journal);
  await assert.rejects(wrongSize.ensureParts('mem_c', 'hashing:v1', 64), refused);
  const plain = createPartsGuard(
    storeWith({ vectorSize: 64, distance: 'Cosine', namedVectors: [], pointsCount: 0 }).store,
    journal,
  );
  await assert.rejects(plain.ensureParts('mem_d', 'hashing:v1', 64), /reindex/);
});
