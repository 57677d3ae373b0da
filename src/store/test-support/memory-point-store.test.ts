import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StoreError } from '../../errors/memory-pool-error.js';
import { createMemoryPointStore } from './memory-point-store.js';
import { describePointStoreContract } from './point-store-contract.js';

describePointStoreContract('the in-memory fake', async () => {
  let counter = 0;
  return {
    store: createMemoryPointStore(),
    uniqueCollection: (prefix) => `${prefix}_${++counter}`,
    close: async () => {},
  };
});

test('a hook sees every call before the store and fails it by throwing', async () => {
  const calls: string[] = [];
  let down = false;
  const store = createMemoryPointStore({
    beforeCall: ({ method, args }) => {
      calls.push(`${method} ${String(args[0])}`);
      if (down) throw new StoreError('store_unavailable', 'Qdrant is down', { retryable: true });
    },
  });
  await store.createCollection('mem_a', 2);
  down = true;
  await assert.rejects(
    store.upsertPoints('mem_a', [{ id: 1, vector: [1, 0], payload: {} }]),
    /Qdrant is down/,
  );
  down = false;
  assert.equal(await store.countPoints('mem_a'), 0, 'the failed call never reached the store');
  assert.deepEqual(calls, ['createCollection mem_a', 'upsertPoints mem_a', 'countPoints mem_a']);
});

test('a filter the fake cannot evaluate throws instead of matching everything', async () => {
  const store = createMemoryPointStore();
  await store.createCollection('mem_a', 2);
  await store.upsertPoints('mem_a', [{ id: 1, vector: [1, 0], payload: { at: { lat: 1, lon: 2 } } }]);
  await assert.rejects(
    store.countPoints('mem_a', {
      must: [{ key: 'at', geo_radius: { center: { lat: 1, lon: 2 }, radius: 1 } }],
    }),
    /does not evaluate/,
  );
});
