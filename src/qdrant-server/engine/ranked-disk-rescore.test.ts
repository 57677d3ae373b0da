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

const pairs = (hits: { item: Owner; score: number }[]) => hits.map((hit) => [hit.item.id, hit.score]);

/** The same vectors around one centre (scores close together) in RAM and on disk, with the disk's reads. */
function clustered(dim: number, count: number, spread: number, seed: number) {
  const random = seededRandom(seed);
  const centre = Array.from({ length: dim }, () => random() * 2 - 1);
  const near = () =>
    prepareVector(
      centre.map((x) => x + (random() - 0.5) * spread),
      'Cosine',
    );
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
  for (let id = 0; id < count; id++) {
    const vector = near();
    stored.set(id, vector);
    ram.add({ slot: -1, id }, vector);
    disk.add({ slot: -1, id }, vector);
  }
  return { ram, disk, query: near(), read, calls };
}

test('on clustered vectors an exact top 10 on disk reads about 10 rows, not the int8 bound thousands', async () => {
  const { ram, disk, query, read } = clustered(256, 3000, 0.4, 3);
  const request = { distance: 'Cosine' as const, query, k: 10, tieBreak: byId };
  assert.deepEqual(
    pairs(await searchNearest({ ...request, slots: disk })),
    pairs(await searchNearest({ ...request, slots: ram })),
  );
  // Each candidate's fine codes bound its score within ~1/256 of an int8 step: the reads are the top 10 and the
  // rest of their batch of 32.
  assert.ok(read.length <= 64, `read ${read.length} rows for a top 10 of 3,000`);
});

test('an exact search on disk whose first int8 pass falls short reads no vector twice, and answers as in RAM', async () => {
  // 2,048 dimensions: the recent reads hold 1,024 vectors, fewer than a top 1,500 reads.
  const { ram, disk, query, read, calls } = clustered(2048, 3000, 0.4, 12);
  const request = { distance: 'Cosine' as const, query, k: 1500, tieBreak: byId };
  const onDisk = await searchNearest({ ...request, slots: disk });
  const inRam = await searchNearest({ ...request, slots: ram });
  assert.deepEqual(pairs(onDisk), pairs(inRam));
  assert.ok(read.length > 1500, `read ${read.length}`);
  assert.equal(new Set(read).size, read.length, 'no vector read twice');
  // Batched: a read is one statement per 32 rows (sqlite-persistence.ts), so few calls carry many rows.
  assert.ok(calls.length * 16 <= read.length, `${calls.length} reads for ${read.length} rows`);
});
