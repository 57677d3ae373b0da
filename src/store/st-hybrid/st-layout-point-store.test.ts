import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { StoreCall } from '../test-support/with-store-hooks.js';
import { createMemoryPointStore, type MemoryCollectionLayout } from '../test-support/memory-point-store.js';
import { withStCollectionLayouts } from './st-layout-point-store.js';

const unnamed: MemoryCollectionLayout = { vectors: 3 };
const hybrid: MemoryCollectionLayout = { vectors: { dense: 3 }, sparseVectors: { bm25: 'idf' } };

/** Which store call each write and search became, in the words of the tests below. */
function describeCall({ method, args }: StoreCall): string | undefined {
  const [, options] = args as [string, Record<string, unknown>];
  switch (method) {
    case 'describeCollection':
      return 'describe';
    case 'upsertPoints':
      return 'upsert unnamed';
    case 'upsertNamedVectors':
      return `upsert named ${Object.keys((options as unknown as { vectors: object }[])[0]!.vectors).join('+')}`;
    case 'searchPoints':
      return 'search unnamed';
    case 'queryPoints':
      return `query ${options.using}`;
    case 'queryFused':
      return `fused ${(options.prefetch as { using: string }[]).map((p) => p.using).join('+')}`;
    default:
      return undefined;
  }
}

/** The in-memory store under the layout wrapper, recording the calls the wrapper makes. */
function layoutStore() {
  const calls: string[] = [];
  const inner = createMemoryPointStore({
    beforeCall: (call) => {
      const described = describeCall(call);
      if (described) calls.push(described);
    },
  });
  return { inner, store: withStCollectionLayouts(inner), calls };
}

const point = { id: 1, vector: [1, 0, 0], payload: { text: 'Mochi the cat' } };

test('each collection is written and searched in its own layout, its shape read once', async () => {
  const { inner, store, calls } = layoutStore();
  await inner.createCollectionWithLayout('mem_h', hybrid);
  await store.upsertPoints('mem_h', [point]);
  const found = await store.searchPoints('mem_h', { vector: [1, 0, 0], limit: 4, queryText: 'Mochi?' });
  await store.searchPoints('mem_h', { vector: [1, 0, 0], limit: 4, queryText: '?!' });
  await store.searchPoints('mem_h', { vector: [1, 0, 0], limit: 4 });
  assert.deepEqual(
    found.map((p) => p.id),
    [1],
  );
  assert.deepEqual(calls, [
    'describe',
    'upsert named dense+bm25',
    'fused dense+bm25',
    'query dense',
    'query dense',
  ]);
});

test('a collection SillyTavern migrated to the hybrid layout is read again after a failed write', async () => {
  const { inner, store, calls } = layoutStore();
  await inner.createCollectionWithLayout('mem_m', unnamed);
  await store.upsertPoints('mem_m', [point]);
  // The fork's "upgrade to BM25" deletes the collection and creates it again in its hybrid layout.
  await inner.deleteCollection('mem_m');
  await inner.createCollectionWithLayout('mem_m', hybrid);
  await assert.rejects(store.upsertPoints('mem_m', [point]), /Not existing vector name/);
  await store.upsertPoints('mem_m', [point]);
  assert.deepEqual(calls, [
    'describe',
    'upsert unnamed',
    'upsert unnamed',
    'describe',
    'upsert named dense+bm25',
  ]);
  assert.equal(inner.heldPoints('mem_m').length, 1);
});

test('a missing collection is not remembered: it is created unnamed, then read', async () => {
  const { inner, store, calls } = layoutStore();
  await assert.rejects(store.upsertPoints('mem_new', [point]), /doesn't exist/);
  await inner.createCollection('mem_new', 3);
  await store.upsertPoints('mem_new', [point]);
  assert.deepEqual(calls, ['describe', 'upsert unnamed', 'describe', 'upsert unnamed']);
});
