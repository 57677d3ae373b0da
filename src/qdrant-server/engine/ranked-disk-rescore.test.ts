/** @module Tests that an exact search over on-disk vectors reads each row once, in batches, and answers as in RAM. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { seededRandom } from './engine-test-kit.js';
import { prepareVector } from './f32.js';
import { searchNearest } from './vector-search.js';
import { VectorSlots } from './vector-slots.js';

interface Owner {
  slot: number;
  readonly id: number;
}

const byId = (a: Owner, b: Owner) => a.id - b.id;

test('an exact search on disk whose first int8 pass falls short reads no vector twice, and answers as in RAM', async () => {
  // 2,048 dimensions: the recent reads hold 1,024 vectors, fewer than the first pass reads for a top 1,000.
  const dim = 2048;
  const random = seededRandom(12);
  const centre = Array.from({ length: dim }, () => random() * 2 - 1);
  const stored = new Map<number, Float32Array>();
  const read: number[] = [];
  const calls: number[] = [];
  const ram = new VectorSlots<Owner>(dim);
  const disk = new VectorSlots<Owner>(dim);
  disk.source = (owners) => {
    calls.push(owners.length);
    read.push(...owners.map((owner) => owner.id));
    return owners.map((owner) => stored.get(owner.id)?.slice());
  };
  disk.moveToDisk();
  // One cluster: scores close together, so the int8 bound separates few candidates.
  for (let id = 0; id < 3000; id++) {
    const vector = prepareVector(
      centre.map((x) => x + (random() - 0.5) * 0.4),
      'Cosine',
    );
    stored.set(id, vector);
    ram.add({ slot: -1, id }, vector);
    disk.add({ slot: -1, id }, vector);
  }
  const query = prepareVector(
    centre.map((x) => x + (random() - 0.5) * 0.4),
    'Cosine',
  );
  const request = { distance: 'Cosine' as const, query, k: 1000, tieBreak: byId };
  const onDisk = await searchNearest({ ...request, slots: disk });
  const inRam = await searchNearest({ ...request, slots: ram });
  const pairs = (hits: { item: Owner; score: number }[]) => hits.map((hit) => [hit.item.id, hit.score]);
  assert.deepEqual(pairs(onDisk), pairs(inRam));
  assert.ok(read.length > 1256, `past the first pass's 1,256 candidates: read ${read.length}`);
  assert.equal(new Set(read).size, read.length, 'no vector read twice');
  // Batched: a read is one statement per 32 rows (sqlite-persistence.ts), so few calls carry many rows.
  assert.ok(calls.length * 16 <= read.length, `${calls.length} reads for ${read.length} rows`);
});
