import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CollectionEngine, Distance, StoreEngine } from './engine-api.js';
import { createTestCollection, filter, openTestStore, plainJson, read } from './engine-test-kit.js';

/** Points 1..5 on a line: [i, 0], with a parity tag. */
function line(store: StoreEngine, distance: Distance): CollectionEngine {
  const c = createTestCollection(store, `line-${distance}`, 2, distance);
  c.upsert([1, 2, 3, 4, 5].map((i) => ({ id: i, vector: [i, 1], payload: { odd: i % 2 === 1 } })));
  return c;
}

function search(
  c: CollectionEngine,
  vector: number[],
  extra: Partial<Parameters<CollectionEngine['search']>[0]> = {},
) {
  return c.search({ ...read(), vector, limit: 10, offset: 0, ...extra });
}

describe('search', () => {
  test('Euclid scores are distances, ascending', async () => {
    const { store } = openTestStore();
    const hits = await search(line(store, 'Euclid'), [2, 1]);
    assert.deepEqual(
      hits.map((h) => h.id),
      [2, 1, 3, 4, 5],
    );
    assert.deepEqual(
      hits.map((h) => h.score),
      [0, 1, 1, 2, 3],
    );
  });

  test('Manhattan scores are L1 distances, ascending', async () => {
    const { store } = openTestStore();
    const hits = await search(line(store, 'Manhattan'), [5, 0]);
    assert.deepEqual(
      hits.map((h) => [h.id, h.score]),
      [
        [5, 1],
        [4, 2],
        [3, 3],
        [2, 4],
        [1, 5],
      ],
    );
  });

  test('Dot scores are raw dot products, descending; Cosine scores are cosine similarities', async () => {
    const { store } = openTestStore();
    const dot = await search(line(store, 'Dot'), [1, 0]);
    assert.deepEqual(
      dot.map((h) => [h.id, h.score]),
      [
        [5, 5],
        [4, 4],
        [3, 3],
        [2, 2],
        [1, 1],
      ],
    );
    const cosine = createTestCollection(store, 'cos', 2, 'Cosine');
    cosine.upsert([
      { id: 1, vector: [1, 0], payload: {} },
      { id: 2, vector: [0, 3], payload: {} },
      { id: 3, vector: [1, 1], payload: {} },
    ]);
    const hits = await search(cosine, [10, 0]);
    assert.deepEqual(
      hits.map((h) => h.id),
      [1, 3, 2],
    );
    assert.ok(Math.abs((hits[1]?.score ?? 0) - Math.SQRT1_2) < 1e-6);
    assert.ok(Math.abs(hits[2]?.score ?? 1) < 1e-6);
  });

  test('equal scores are ordered by id ascending', async () => {
    const { store } = openTestStore();
    const c = createTestCollection(store, 'ties', 2, 'Dot');
    c.upsert([9, 3, 7, 1].map((id) => ({ id, vector: [1, 1], payload: {} })));
    assert.deepEqual(
      (await search(c, [1, 1])).map((h) => h.id),
      [1, 3, 7, 9],
    );
  });

  test('score_threshold is strict for similarities and for distances', async () => {
    const { store } = openTestStore();
    assert.deepEqual(
      (await search(line(store, 'Dot'), [1, 0], { scoreThreshold: 3 })).map((h) => h.id),
      [5, 4],
    );
    assert.deepEqual(
      (await search(line(store, 'Euclid'), [1, 1], { scoreThreshold: 2 })).map((h) => h.id),
      [1, 2],
    );
  });

  test('offset skips the best hits after limit and threshold are applied', async () => {
    const { store } = openTestStore();
    const c = line(store, 'Dot');
    assert.deepEqual(
      (await search(c, [1, 0], { offset: 1, limit: 2 })).map((h) => h.id),
      [4, 3],
    );
    assert.deepEqual(
      (await search(c, [1, 0], { offset: 1, limit: 3, scoreThreshold: 3.5 })).map((h) => h.id),
      [4],
    );
  });

  test('filters candidates, skips points without a vector, returns payload and version', async () => {
    const { store } = openTestStore();
    const c = line(store, 'Dot');
    c.upsert([{ id: 6, vector: null, payload: { odd: false } }]);
    const hits = await search(c, [1, 0], {
      filter: filter({ must: [{ key: 'odd', match: { value: false } }] }),
      withPayload: { kind: 'all' },
    });
    assert.deepEqual(plainJson(hits.map((h) => [h.id, h.payload, h.version])), [
      [4, { odd: false }, 0],
      [2, { odd: false }, 0],
    ]);
  });

  test('checks the query dimension', async () => {
    const { store } = openTestStore();
    await assert.rejects(async () => await search(line(store, 'Dot'), [1, 0, 0]), {
      message: 'Wrong input: Vector dimension error: expected dim: 2, got 3',
    });
  });
});
