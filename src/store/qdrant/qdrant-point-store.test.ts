import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readEnv } from '../../runtime/read-env.js';
import { startTestQdrant } from '../../service/test-support/start-test-qdrant.js';
import { describePointStoreContract, type PointStoreTarget } from '../test-support/point-store-contract.js';
import { createQdrantPointStore } from './qdrant-point-store.js';
import { createQdrantStoreAdmin } from './qdrant-store-admin.js';
import { UPSERT_SLICE_COMPONENTS } from './slice-upsert.js';

/** The adapter over a fresh store; `posted`: upserts posted to the embedded store on its own thread, as serve does. */
async function openAdapter(posted: boolean) {
  const qdrant = await startTestQdrant({ onThread: posted });
  const options = { url: qdrant.url, ...(qdrant.apiKey ? { apiKey: qdrant.apiKey } : {}) };
  const store = createQdrantPointStore({ ...options, ...(posted ? { posted: qdrant.server } : {}) });
  return { qdrant, options, store };
}

const realQdrant = readEnv(process.env, 'QDRANT_URL') !== undefined;

// Against a real Qdrant: QDRANT_URL=http://localhost:6333 [QDRANT_API_KEY=…] npm test -- qdrant-point-store
describePointStoreContract(
  realQdrant
    ? 'the Qdrant adapter over the Qdrant at QDRANT_URL'
    : 'the Qdrant adapter over the embedded store',
  () => openTarget(false),
);

// What serve does with the embedded store: the same suite, with every upsert and point read posted to the store's thread.
if (!realQdrant) {
  describePointStoreContract('the Qdrant adapter over the embedded store thread, upserts and reads posted', () =>
    openTarget(true),
  );
}

async function openTarget(posted: boolean): Promise<PointStoreTarget> {
  const { qdrant, options, store } = await openAdapter(posted);
  const admin = createQdrantStoreAdmin(options);
  const runId = Math.random().toString(36).slice(2, 8);
  const created: string[] = [];
  return {
    store,
    uniqueCollection: (prefix) => {
      const name = `mp_${prefix}_${runId}_${created.length}`;
      created.push(name);
      return name;
    },
    async close() {
      // Best effort: a failed cleanup must not hide the result that matters.
      await Promise.all(created.map((name) => admin.deleteCollection(name).catch(() => {})));
      await qdrant.close();
    },
  };
}

// A batch larger than two requests (UPSERT_SLICE_COMPONENTS each) goes as three: every point lands, vectors exact.
describe('the Qdrant adapter, upserting more than two requests hold', () => {
  for (const posted of realQdrant ? [false] : [false, true]) {
    test(`stores all 50 points of 3072-d, each findable by its own vector${posted ? ' (posted)' : ''}`, async () => {
      const { qdrant, options, store } = await openAdapter(posted);
      const collection = `mp_slices_${Math.random().toString(36).slice(2, 8)}`;
      try {
        await store.createCollection(collection, 3072);
        const points = Array.from({ length: 50 }, (_, i) => ({
          id: i + 1,
          vector: Array.from({ length: 3072 }, (_, d) => (d === i ? 1 : 0.001 * ((d * 7 + i) % 13))),
          payload: { n: i },
        }));
        assert.ok(points.length * 3072 > 2 * UPSERT_SLICE_COMPONENTS);
        await store.upsertPoints(collection, points);
        assert.equal(await store.countPoints(collection), 50);
        for (const i of [0, 21, 30, 49]) {
          const [best] = await store.searchPoints(collection, { vector: points[i]!.vector, limit: 1 });
          assert.deepEqual([best?.id, best?.payload], [i + 1, { n: i }]);
        }
      } finally {
        await createQdrantStoreAdmin(options)
          .deleteCollection(collection)
          .catch(() => {});
        await qdrant.close();
      }
    });
  }
});

// store.embedded.vectorsOnDisk: the collections memory-pool creates ask for Qdrant's `on_disk: true`, only then.
describe('the Qdrant adapter, creating collections with vectors on disk', () => {
  test('asks for on_disk on the dense vector of both layouts when told to, and leaves it out otherwise', async () => {
    const qdrant = await startTestQdrant({ onThread: false });
    const base = { url: qdrant.url, ...(qdrant.apiKey ? { apiKey: qdrant.apiKey } : {}) };
    const headers = qdrant.apiKey ? { 'api-key': qdrant.apiKey } : undefined;
    const vectorsOf = async (name: string) =>
      (
        (await (await fetch(`${qdrant.url}/collections/${name}`, { headers })).json()) as {
          result: { config: { params: { vectors: Record<string, unknown> } } };
        }
      ).result.config.params.vectors;
    const suffix = Math.random().toString(36).slice(2, 8);
    try {
      for (const vectorsOnDisk of [true, false]) {
        const store = createQdrantPointStore({ ...base, vectorsOnDisk });
        await store.createCollection(`mp_disk_${vectorsOnDisk}_${suffix}`, 8);
        await store.createHybridCollection(`mp_disk_${vectorsOnDisk}_${suffix}__parts`, 8);
        const plain = await vectorsOf(`mp_disk_${vectorsOnDisk}_${suffix}`);
        const hybrid = (await vectorsOf(`mp_disk_${vectorsOnDisk}_${suffix}__parts`)).dense as Record<
          string,
          unknown
        >;
        assert.equal(plain.on_disk, vectorsOnDisk ? true : undefined);
        assert.equal(hybrid.on_disk, vectorsOnDisk ? true : undefined);
      }
    } finally {
      const admin = createQdrantStoreAdmin(base);
      for (const name of [`mp_disk_true_${suffix}`, `mp_disk_false_${suffix}`])
        for (const each of [name, `${name}__parts`]) await admin.deleteCollection(each).catch(() => {});
      await qdrant.close();
    }
  });
});

// A forget deletes what a failed write may have stored: no slice of that write may land after the delete.
if (!realQdrant) {
  test('after a posted upsert times out and its ids are deleted, none of its points comes back', async () => {
    const { qdrant, options, store } = await openAdapter(true);
    const hurried = createQdrantPointStore({ ...options, posted: qdrant.server, timeoutMs: 1 });
    try {
      await store.createCollection('notes', 3072);
      // Ten slices: the first cannot be answered within 1 ms, and nine wait behind it on the store's thread.
      const points = Array.from({ length: 210 }, (_, i) => ({
        id: i + 1,
        vector: Array.from({ length: 3072 }, (_, d) => ((d + i) % 17) / 17),
        payload: { n: i },
      }));
      await assert.rejects(hurried.upsertPoints('notes', points), /did not answer an upsert within 1 ms/);
      await store.deletePoints('notes', { ids: points.map((p) => p.id) });
      // Posted upserts are applied in the order sent: once this one is stored, none sent before it is queued.
      await store.upsertPoints('notes', [{ id: 1000, vector: points[0]!.vector, payload: {} }]);
      assert.equal(await store.countPoints('notes'), 1);
    } finally {
      await qdrant.close();
    }
  });
}
