import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CollectionShape } from '../point-store.js';
import { withStCollectionLayouts } from './st-layout-point-store.js';

const unnamed: CollectionShape = { vectorSize: 3, distance: 'Cosine', namedVectors: [], pointsCount: 1 };
const hybrid: CollectionShape = {
  vectorSize: undefined,
  distance: undefined,
  namedVectors: ['dense'],
  namedVectorSizes: { dense: 3 },
  sparseVectors: { bm25: 'idf' },
  pointsCount: 1,
};

/** Records which call each write and search became; `shape` is what describeCollection answers. */
function fakeStore(shape: { current: CollectionShape | undefined }, failNext = { upsert: false }) {
  const calls: string[] = [];
  const inner = {
    describeCollection: async () => {
      calls.push('describe');
      return shape.current;
    },
    upsertPoints: async () => {
      calls.push('upsert unnamed');
      if (failNext.upsert) {
        failNext.upsert = false;
        throw new Error('Wrong input: Not existing vector name');
      }
    },
    upsertNamedVectors: async (_c: string, points: readonly { vectors: Record<string, unknown> }[]) =>
      void calls.push(`upsert named ${Object.keys(points[0]!.vectors).join('+')}`),
    searchPoints: async () => {
      calls.push('search unnamed');
      return [];
    },
    queryPoints: async (_c: string, q: { using: string }) => {
      calls.push(`query ${q.using}`);
      return [];
    },
    queryFused: async (_c: string, q: { prefetch: readonly { using: string }[] }) => {
      calls.push(`fused ${q.prefetch.map((p) => p.using).join('+')}`);
      return [];
    },
  };
  // biome-ignore lint/suspicious/noExplicitAny: a partial fake of the store
  return { store: withStCollectionLayouts(inner as any), calls };
}

const point = { id: 1, vector: [1, 0, 0], payload: { text: 'Mochi the cat' } };

test('each collection is written and searched in its own layout, its shape read once', async () => {
  const shape = { current: hybrid as CollectionShape | undefined };
  const { store, calls } = fakeStore(shape);
  await store.upsertPoints('mem_h', [point]);
  await store.searchPoints('mem_h', { vector: [1, 0, 0], limit: 4, queryText: 'Mochi?' });
  await store.searchPoints('mem_h', { vector: [1, 0, 0], limit: 4, queryText: '?!' });
  await store.searchPoints('mem_h', { vector: [1, 0, 0], limit: 4 });
  assert.deepEqual(calls, [
    'describe',
    'upsert named dense+bm25',
    'fused dense+bm25',
    'query dense',
    'query dense',
  ]);
});

test('a collection SillyTavern migrated to the hybrid layout is read again after a failed write', async () => {
  const shape = { current: unnamed as CollectionShape | undefined };
  const failNext = { upsert: false };
  const { store, calls } = fakeStore(shape, failNext);
  await store.upsertPoints('mem_m', [point]);
  shape.current = hybrid; // the fork's "upgrade to BM25" deleted and recreated it
  failNext.upsert = true;
  await assert.rejects(store.upsertPoints('mem_m', [point]));
  await store.upsertPoints('mem_m', [point]);
  assert.deepEqual(calls, [
    'describe',
    'upsert unnamed',
    'upsert unnamed',
    'describe',
    'upsert named dense+bm25',
  ]);
});

test('a missing collection is not remembered: it is created unnamed, then read', async () => {
  const shape = { current: undefined as CollectionShape | undefined };
  const { store, calls } = fakeStore(shape);
  await store.upsertPoints('mem_new', [point]);
  shape.current = unnamed;
  await store.upsertPoints('mem_new', [point]);
  assert.deepEqual(calls, ['describe', 'upsert unnamed', 'describe', 'upsert unnamed']);
});
