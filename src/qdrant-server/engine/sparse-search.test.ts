import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CollectionEngine, QueryRequest } from './engine-api.js';
import { openTestStore, read } from './engine-test-kit.js';
import { compareEntries, PointEntry } from './point-table.js';
import { SparseIndex } from './sparse-index.js';
import { inverseDocumentFrequency, scoreSparse } from './sparse-search.js';
import { searchSparse } from './sparse-top.js';
import { seededRandom } from '../../runtime/seeded-random.js';

const sparse = (indices: number[], values: number[]) => ({
  indices: Uint32Array.from(indices),
  values: Float32Array.from(values),
});

/** A collection with one idf sparse vector `words` and one plain `raw`. */
function wordsCollection(): CollectionEngine {
  const { store } = openTestStore();
  store.createCollection('w', {
    vectors: null,
    sparseVectors: { words: { modifier: 'idf' }, raw: {} },
    settings: {},
  });
  return store.collection('w');
}

function query(c: CollectionEngine, request: Partial<QueryRequest>) {
  return c.query({ ...read(), prefetch: [], limit: 10, offset: 0, ...request });
}

const scoresById = (hits: { id: unknown; score: number }[]) =>
  Object.fromEntries(hits.map((h) => [h.id, h.score]));

describe('sparse search', () => {
  test('idf is ln((N - df + 0.5) / (df + 0.5) + 1), an f32', async () => {
    const close = (actual: number, expected: number) => {
      assert.equal(actual, Math.fround(actual), 'an f32 value');
      assert.ok(Math.abs(actual - expected) < 1e-6, `${actual} is not ${expected}`);
    };
    close(inverseDocumentFrequency(3, 1), Math.log(2.5 / 1.5 + 1));
    close(inverseDocumentFrequency(3, 3), Math.log(0.5 / 3.5 + 1));
    // A term in no document still gets a finite, large weight.
    close(inverseDocumentFrequency(10, 0), Math.log(10.5 / 0.5 + 1));
  });

  test('the score is the f32 dot product over shared indices, none shared gives no score', async () => {
    assert.equal(
      scoreSparse(sparse([1, 4, 9], [0.5, 2, 3]), sparse([4, 9, 12], [1, 0.1, 7])),
      Math.fround(2 + Math.fround(3 * Math.fround(0.1))),
    );
    assert.equal(scoreSparse(sparse([1], [1]), sparse([2], [1])), undefined);
    assert.equal(scoreSparse(sparse([1], [0]), sparse([1], [5])), 0);
  });

  test('document frequencies follow upserts, replacements and deletes', async () => {
    const c = wordsCollection();
    const doc = (indices: number[]) => ({ words: { indices, values: indices.map(() => 1) } });
    c.upsert([
      { id: 1, vector: doc([1, 2]), payload: {} },
      { id: 2, vector: doc([2]), payload: {} },
      { id: 3, vector: doc([3]), payload: {} },
    ]);
    const ask = async () =>
      scoresById(
        await query(c, { query: { kind: 'nearest', vector: { indices: [2], values: [1] } }, using: 'words' }),
      );
    assert.deepEqual(await ask(), { 1: inverseDocumentFrequency(3, 2), 2: inverseDocumentFrequency(3, 2) });
    // Point 2 loses dimension 2: N stays 3, df(2) drops to 1.
    c.upsert([{ id: 2, vector: doc([3]), payload: {} }]);
    assert.deepEqual(await ask(), { 1: inverseDocumentFrequency(3, 1) });
    // Deleting point 3 makes N = 2; a point without the vector does not count.
    c.deletePoints({ ids: [3] });
    c.upsert([{ id: 4, vector: null, payload: {} }]);
    assert.deepEqual(await ask(), { 1: inverseDocumentFrequency(2, 1) });
    c.deletePoints({ ids: [1] });
    assert.deepEqual(await ask(), {});
  });

  test('without a modifier the raw weights are used; query indices may come in any order', async () => {
    const c = wordsCollection();
    c.upsert([{ id: 1, vector: { raw: { indices: [7, 3], values: [2, 0.5] } }, payload: {} }]);
    const hits = await query(c, {
      query: { kind: 'nearest', vector: { indices: [7, 3], values: [1, 4] } },
      using: 'raw',
    });
    assert.deepEqual(scoresById(hits), { 1: 4 });
    const [stored] = c.retrieve([1], read(false, true));
    assert.deepEqual(stored?.vector, { raw: { indices: [3, 7], values: [0.5, 2] } });
  });

  test('a dense query on a sparse name and a sparse query on a dense name are refused', async () => {
    const { store } = openTestStore();
    store.createCollection('m', {
      vectors: null,
      namedVectors: { dense: { size: 2, distance: 'Dot', extras: {} } },
      sparseVectors: { words: {} },
      settings: {},
    });
    const c = store.collection('m');
    const wrong = { status: 400, message: 'Wrong input: Wrong usage of sparse vectors' };
    await assert.rejects(
      async () => await query(c, { query: { kind: 'nearest', vector: [1, 0] }, using: 'words' }),
      wrong,
    );
    await assert.rejects(
      async () =>
        await query(c, { query: { kind: 'nearest', vector: { indices: [1], values: [1] } }, using: 'dense' }),
      wrong,
    );
  });

  test('search returns exactly what scoring every stored vector returns, after removals too', async () => {
    const random = seededRandom(11);
    // Skewed dimensions (a few in almost every vector, most rare), weights binary or counts, or signed.
    const dimension = () => Math.floor(200 * random() ** 4);
    for (const style of ['binary', 'counts', 'signed'] as const) {
      const index = new SparseIndex();
      const store = (id: number) => {
        const indices = [...new Set(Array.from({ length: 3 + Math.floor(random() * 20) }, dimension))].sort(
          (a, b) => a - b,
        );
        const values = indices.map(() =>
          style === 'binary' ? 1 : style === 'counts' ? 1 + Math.floor(random() * 4) : random() * 2 - 1,
        );
        return index.add(sparse(indices, values), new PointEntry(id, `n:${id}`, {}, 0));
      };
      let docs = Array.from({ length: 600 }, (_, id) => store(id));
      // Churn: remove a third (swap-removes move other vectors in their posting lists), then reuse the slots.
      const removed = docs.filter(() => random() < 1 / 3);
      for (const doc of removed) index.remove(doc);
      docs = [...docs.filter((doc) => !removed.includes(doc)), ...removed.map((_, i) => store(1000 + i))];
      assert.equal(index.documentCount, docs.length);
      for (const dim of [0, 1, 5, 50, 150]) {
        const holding = docs.filter((doc) => doc.indices.includes(dim)).length;
        assert.equal(index.documentFrequency(dim), holding, `df of ${dim}`);
      }
      for (let round = 0; round < 40; round++) {
        const indices = [...new Set(Array.from({ length: 2 + Math.floor(random() * 6) }, dimension))].sort(
          (a, b) => a - b,
        );
        const query = sparse(
          indices,
          indices.map(() => Math.fround(style === 'signed' ? random() * 6 - 3 : random() * 3)),
        );
        const test = round % 3 === 0 ? (p: PointEntry) => (p.id as number) % 2 === 0 : undefined;
        const threshold = round % 4 === 1 ? 2 : undefined;
        const expected = docs
          .map((doc) => ({ item: doc.point, score: scoreSparse(query, doc) }))
          .filter((hit) => hit.score !== undefined && (test === undefined || test(hit.item)))
          .filter((hit) => threshold === undefined || (hit.score as number) > threshold)
          .sort((a, b) => (b.score as number) - (a.score as number) || compareEntries(a.item, b.item))
          .slice(0, 5);
        assert.deepEqual(searchSparse(index, query, 5, test, threshold), expected, `${style} round ${round}`);
      }
    }
  });
});
