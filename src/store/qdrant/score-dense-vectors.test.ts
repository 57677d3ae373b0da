import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { computeCosine } from '../../runtime/cosine-similarity.js';
import { seededRandom } from '../../runtime/seeded-random.js';
import { startTestQdrant, type TestQdrant } from '../../service/test-support/start-test-qdrant.js';
import type { MemoryStore } from '../memory-store.js';
import { createQdrantPointStore } from './qdrant-point-store.js';

// Recall scores a part found by words alone with this read (issue 37.8): the store thread computes the cosines
// and answers numbers; over REST the vectors are read and the cosines computed here. Both must say the same.
describe('the query cosine of points by id', { skip: process.env.QDRANT_URL !== undefined }, () => {
  let qdrant: TestQdrant;
  let posted: MemoryStore;
  let rest: MemoryStore;
  const collection = 'mp_cosines';
  const random = seededRandom(37);
  const draw = () => Array.from({ length: 64 }, () => random() * 2 - 1);
  const points = Array.from({ length: 30 }, (_, i) => ({ id: i + 1, dense: draw() }));

  before(async () => {
    qdrant = await startTestQdrant({ onThread: true });
    const server = qdrant.server;
    assert.ok(server !== undefined && 'denseCosines' in server);
    rest = createQdrantPointStore({ url: qdrant.url });
    posted = createQdrantPointStore({ url: qdrant.url, posted: server });
    await rest.createHybridCollection(collection, 64);
    await rest.upsertHybridPoints(
      collection,
      points.map((p) => ({ ...p, sparse: { indices: [p.id], values: [1] }, payload: {} })),
    );
  });
  after(async () => qdrant.close());

  test('posted to the store thread and read over REST, the same numbers, to the last bit', async () => {
    const query = new Float32Array(draw());
    const ids = [3, 999, 17, 1, 30];
    const overRest = await rest.scoreDenseVectors(collection, query, ids);
    const onThread = await posted.scoreDenseVectors(collection, query, ids);
    assert.deepEqual([...onThread].sort(), [...overRest].sort());
    assert.deepEqual([...onThread.keys()].sort(), ['1', '17', '3', '30'], 'a missing id is left out');
    for (const id of [1, 3, 17, 30]) {
      const stored = points[id - 1]!.dense;
      // The stored vector is the sent one normalized in f32: its cosine is the sent one's, within f32 rounding.
      assert.ok(Math.abs(onThread.get(String(id))! - computeCosine(query, stored)) < 1e-6);
    }
  });

  test('no ids: no read; an unknown collection: the 404 a read would answer', async () => {
    assert.equal((await posted.scoreDenseVectors('mp_nowhere', [1], [])).size, 0);
    for (const store of [posted, rest]) {
      await assert.rejects(store.scoreDenseVectors('mp_nowhere', [1, 0], [1]), (error: unknown) => {
        assert.match(String((error as Error).message), /mp_nowhere/);
        return true;
      });
    }
  });
});
