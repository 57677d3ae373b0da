import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { gatherCodes } from './code-gather.js';
import type { Distance } from './engine-api.js';
import { seededRandom } from './engine-test-kit.js';
import { prepareVector } from './f32.js';
import { isSimilarity, scorerFor } from './vector-scoring.js';
import { searchNearest } from './vector-search.js';
import { VectorSlots } from './vector-slots.js';

interface Owner {
  slot: number;
  readonly id: number;
}

const byId = (a: Owner, b: Owner) => a.id - b.id;

/** The filter keeping exactly these slots, as searchNearest takes it. */
function acceptSlots(allowed: Int32Array | undefined): { accept?: (owner: Owner) => boolean } {
  if (allowed === undefined) return {};
  const kept = new Set(allowed);
  return { accept: (owner) => kept.has(owner.slot) };
}

/** Enough points that searchNearest takes the usearch path (more than 2^18 values). */
function randomSlots(distance: Distance, count: number, dim: number, seed: number): VectorSlots<Owner> {
  const random = seededRandom(seed);
  const slots = new VectorSlots<Owner>(dim);
  for (let i = 0; i < count; i++) {
    const values = Array.from({ length: dim }, () => random() * 2 - 1);
    slots.add({ slot: -1, id: (i * 7919) % count }, prepareVector(values, distance));
  }
  // Churn: delete some slots so swap-remove has moved vectors around.
  for (let i = 0; i < 50; i++) slots.remove(Math.floor(random() * slots.count));
  return slots;
}

/** Scores every allowed slot and sorts: the reference answer. */
function bruteForce(
  slots: VectorSlots<Owner>,
  distance: Distance,
  query: Float32Array,
  k: number,
  allowed?: Int32Array,
) {
  const score = scorerFor(distance);
  const sign = isSimilarity(distance) ? -1 : 1;
  const all: { owner: Owner; score: number }[] = [];
  const n = allowed?.length ?? slots.count;
  for (let i = 0; i < n; i++) {
    const slot = allowed === undefined ? i : (allowed[i] as number);
    all.push({
      owner: slots.owner(slot),
      score: score(slots.data() as Float32Array, slot * slots.dim, query),
    });
  }
  all.sort((a, b) => sign * (a.score - b.score) || a.owner.id - b.owner.id);
  return all.slice(0, k).map((hit) => hit.owner.id);
}

describe('exact vector search', () => {
  for (const distance of ['Cosine', 'Dot', 'Euclid', 'Manhattan'] as const) {
    test(`${distance}: the fast path returns the same ids as scoring every point`, async () => {
      const slots = randomSlots(distance, 3000, 128, 42);
      const random = seededRandom(7);
      const sparse = Int32Array.from({ length: slots.count }, (_, i) => i).filter((slot) => slot % 10 === 3);
      const dense = Int32Array.from({ length: slots.count }, (_, i) => i).filter((slot) => slot % 3 !== 0);
      for (let round = 0; round < 5; round++) {
        const query = prepareVector(
          Array.from({ length: 128 }, () => random() * 2 - 1),
          distance,
        );
        for (const [k, allowed] of [
          [10, undefined],
          [100, undefined],
          [10, sparse],
          [25, dense],
        ] as const) {
          const request = { slots, distance, query, k, ...acceptSlots(allowed), tieBreak: byId };
          const fast = (await searchNearest(request)).map((hit) => hit.item.id);
          assert.deepEqual(fast, bruteForce(slots, distance, query, k, allowed), `round ${round}, k ${k}`);
        }
      }
    });
  }

  test('identical vectors (all scores tied) still come back lowest ids first', async () => {
    const slots = new VectorSlots<Owner>(128);
    const vector = prepareVector(
      Array.from({ length: 128 }, (_, i) => (i % 5) - 2),
      'Cosine',
    );
    for (let i = 0; i < 3000; i++) slots.add({ slot: -1, id: 3000 - i }, vector);
    const hits = await searchNearest({ slots, distance: 'Cosine', query: vector, k: 5, tieBreak: byId });
    assert.deepEqual(
      hits.map((hit) => hit.item.id),
      [1, 2, 3, 4, 5],
    );
  });

  test('filtered search over a packed subset matches scoring every allowed point, ties included', async () => {
    // 512 dims so even the sparse filter has more than 2^18 values and leaves the small-scan path.
    const dim = 512;
    for (const distance of ['Cosine', 'Dot', 'Euclid'] as const) {
      const slots = randomSlots(distance, 8000, dim, 11);
      const random = seededRandom(3);
      // Ties: a block of identical vectors, one of which is the last query below.
      const twin = prepareVector(
        Array.from({ length: dim }, () => random() * 2 - 1),
        distance,
      );
      for (let i = 0; i < 40; i++) slots.add({ slot: -1, id: 20_000 - i }, twin);
      const every = Int32Array.from({ length: slots.count }, (_, i) => i);
      const filters = {
        sparse: every.filter(() => random() < 0.075),
        tenth: every.filter((slot) => slot % 10 === 7 || slot >= slots.count - 40),
        most: every.filter((slot) => slot % 5 < 3),
      };
      const queries = [0, 1, 2].map(() =>
        prepareVector(
          Array.from({ length: dim }, () => random() * 2 - 1),
          distance,
        ),
      );
      for (const query of [...queries, twin]) {
        for (const [name, allowed] of Object.entries(filters)) {
          const k = name === 'most' ? 25 : 10;
          const request = { slots, distance, query, k, ...acceptSlots(allowed), tieBreak: byId };
          const fast = (await searchNearest(request)).map((hit) => hit.item.id);
          assert.deepEqual(fast, bruteForce(slots, distance, query, k, allowed), `${distance}, ${name}`);
        }
      }
    }
  });

  test('a filter whose sampled share misleads (most points sampled pass, few do) still gets the exact answer', async () => {
    const dim = 256;
    const slots = randomSlots('Cosine', 6000, dim, 5);
    // Exactly the evenly spaced slots the share estimate samples, and a few more: it sees 100%, the truth is ~10%.
    const sampled = Array.from({ length: 512 }, (_, i) => Math.floor(((i + 0.5) * slots.count) / 512));
    const extra = Array.from({ length: slots.count }, (_, slot) => slot).filter((slot) => slot % 17 === 0);
    const allowed = Int32Array.from(new Set([...sampled, ...extra]));
    const random = seededRandom(8);
    for (let round = 0; round < 4; round++) {
      const query = prepareVector(
        Array.from({ length: dim }, () => random() * 2 - 1),
        'Cosine',
      );
      for (const k of [10, 40, 2000]) {
        const request = { slots, distance: 'Cosine' as const, query, k, ...acceptSlots(allowed) };
        const fast = (await searchNearest({ ...request, tieBreak: byId })).map((hit) => hit.item.id);
        assert.deepEqual(fast, bruteForce(slots, 'Cosine', query, k, allowed), `round ${round}, k ${k}`);
      }
    }
  });

  test('gathered codes hold the chosen slots in the given order', async () => {
    const codes = Int8Array.from({ length: 12 }, (_, i) => i);
    assert.deepEqual([...gatherCodes(codes, 3, Int32Array.from([3, 0, 2]))], [9, 10, 11, 0, 1, 2, 6, 7, 8]);
    assert.deepEqual([...gatherCodes(codes, 3, Int32Array.from([1]))], [3, 4, 5]);
  });
});
