import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { seededRandom } from '../../runtime/seeded-random.js';
import { compareEntries, PointEntry, type SparseVectorData } from './point-table.js';
import { type SparseDoc, SparseIndex } from './sparse-index.js';
import { scoreSparse, weightQuery } from './sparse-search.js';
import { searchSparse } from './sparse-top.js';

/** Term ids with probability ∝ 1/rank, as words in chat text: a few in most documents, most rare. */
function zipf(random: () => number, vocabulary: number): () => number {
  const cumulative = new Float64Array(vocabulary);
  let sum = 0;
  for (let i = 0; i < vocabulary; i++) cumulative[i] = sum += 1 / (i + 1);
  return () => {
    const target = random() * sum;
    let lo = 0;
    let hi = vocabulary - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cumulative[mid] as number) < target) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/** A sorted, deduplicated sparse vector of `count` draws, weights from `weigh`. */
function draw(term: () => number, count: number, weigh: () => number): SparseVectorData {
  const indices = [...new Set(Array.from({ length: count }, term))].sort((a, b) => a - b);
  return { indices: Uint32Array.from(indices), values: Float32Array.from(indices.map(weigh)) };
}

/** What scoring every stored vector answers. */
function bruteForce(
  docs: readonly SparseDoc[],
  query: SparseVectorData,
  limit: number,
  test: ((p: PointEntry) => boolean) | undefined,
  threshold: number | undefined,
) {
  return docs
    .map((doc) => ({ item: doc.point, score: scoreSparse(query, doc) }))
    .filter((hit) => hit.score !== undefined && (test === undefined || test(hit.item)))
    .filter((hit) => threshold === undefined || (hit.score as number) > threshold)
    .sort((a, b) => (b.score as number) - (a.score as number) || compareEntries(a.item, b.item))
    .slice(0, limit);
}

describe('top-k sparse search', () => {
  test('answers exactly what scoring every point answers, on bm25-like and signed data, after churn', () => {
    const random = seededRandom(36);
    for (const style of ['bm25', 'signed', 'ties'] as const) {
      const term = zipf(random, 3000);
      const weigh = () =>
        style === 'bm25' ? Math.fround(0.3 + random() * 1.5) : style === 'signed' ? random() * 2 - 1 : 1;
      const index = new SparseIndex();
      let next = 0;
      const store = () =>
        index.add(
          draw(term, 8 + Math.floor(random() * 30), weigh),
          new PointEntry(next, `n:${next++}`, {}, 0),
        );
      let docs = Array.from({ length: 3000 }, store);
      // Churn: removals leave the lists' weight bounds loose, which must stay safe.
      const removed = new Set(docs.filter(() => random() < 0.2));
      for (const doc of removed) index.remove(doc);
      docs = [...docs.filter((doc) => !removed.has(doc)), ...Array.from({ length: 300 }, store)];
      for (let round = 0; round < 60; round++) {
        const raw = draw(term, 2 + Math.floor(random() * 8), () =>
          style === 'signed' ? random() * 4 - 2 : 1,
        );
        const query = style === 'signed' ? raw : weightQuery(raw, { modifier: 'idf' }, index);
        const limit = [1, 5, 10, 40][round % 4] as number;
        const test = round % 3 === 0 ? (p: PointEntry) => (p.id as number) % 3 !== 0 : undefined;
        const threshold = round % 5 === 2 ? 1.5 : undefined;
        assert.deepEqual(
          searchSparse(index, query, limit, test, threshold),
          bruteForce(docs, query, limit, test, threshold),
          `${style} round ${round}`,
        );
      }
    }
  });

  test('a rare word decides the answer over a word in every point, scores still exact', () => {
    const index = new SparseIndex();
    const docs: SparseDoc[] = [];
    for (let id = 0; id < 2000; id++) {
      // Dimension 1 in every point at a low weight; dimension 2 in every 100th at a high one.
      const rare = id % 100 === 0;
      const vector = {
        indices: Uint32Array.from(rare ? [1, 2] : [1]),
        values: Float32Array.from(rare ? [0.1, 5] : [0.1 + (id % 7) / 100]),
      };
      docs.push(index.add(vector, new PointEntry(id, `n:${id}`, {}, 0)));
    }
    const query = { indices: Uint32Array.from([1, 2]), values: Float32Array.from([0.3, 2.7]) };
    const found = searchSparse(index, query, 10, undefined);
    assert.deepEqual(found, bruteForce(docs, query, 10, undefined, undefined));
    assert.deepEqual(
      found.map((hit) => hit.item.id),
      [0, 100, 200, 300, 400, 500, 600, 700, 800, 900],
    );
  });

  test('look-alike points tied with the worst kept one are not filter-tested when their id loses', () => {
    const index = new SparseIndex();
    const docs: SparseDoc[] = [];
    // Every point holds the same words with the same weights: one score for all, ties decided by id.
    for (let id = 0; id < 2000; id++) {
      const vector = { indices: Uint32Array.from([1, 2]), values: Float32Array.from([0.5, 0.25]) };
      docs.push(index.add(vector, new PointEntry(id, `n:${id}`, {}, 0)));
    }
    let tested = 0;
    const notDm = (point: PointEntry) => {
      tested++;
      return (point.id as number) % 10 !== 3;
    };
    const query = { indices: Uint32Array.from([1, 2]), values: Float32Array.from([1, 1]) };
    const found = searchSparse(index, query, 10, notDm);
    assert.deepEqual(found, bruteForce(docs, query, 10, notDm, undefined));
    assert.deepEqual(
      found.map((hit) => hit.item.id),
      [0, 1, 2, 4, 5, 6, 7, 8, 9, 10],
    );
    tested = 0;
    searchSparse(index, query, 10, notDm);
    assert.ok(tested <= 20, `tested ${tested} of 2000 tied points`);
  });
});
