import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Distance } from './engine-api.js';
import { seededRandom } from './engine-test-kit.js';
import { prepareVector } from './f32.js';
import { scorerFor } from './vector-scoring.js';
import { searchNearest } from './vector-search.js';
import { VectorSlots } from './vector-slots.js';

interface Owner {
  slot: number;
  readonly id: number;
}

const byId = (a: Owner, b: Owner) => a.id - b.id;

/** Two slots holding the same vectors, one in RAM and one on disk (a map standing in for SQLite), and its reads. */
function twinSlots(distance: Distance, count: number, dim: number, seed: number) {
  const random = seededRandom(seed);
  const stored = new Map<number, Float32Array>();
  let reads = 0;
  const ram = new VectorSlots<Owner>(dim);
  const disk = new VectorSlots<Owner>(dim);
  disk.source = (owners) => {
    reads += owners.length;
    return owners.map((owner) => stored.get(owner.id)?.slice());
  };
  disk.moveToDisk();
  const add = (id: number, vector: Float32Array) => {
    stored.set(id, vector);
    ram.add({ slot: -1, id }, vector);
    disk.add({ slot: -1, id }, vector);
  };
  for (let i = 0; i < count; i++) {
    // Growing components: the codes are re-scaled several times along the way, on disk from the stored values.
    const spread = 1 + Math.floor(i / 500);
    add(
      i,
      prepareVector(
        Array.from({ length: dim }, () => (random() * 2 - 1) * spread),
        distance,
      ),
    );
  }
  return { ram, disk, add, random, stored, reads: () => reads };
}

const asPairs = (hits: { item: Owner; score: number }[]) => hits.map((hit) => [hit.item.id, hit.score]);

describe('vector slots on disk (on_disk: true)', () => {
  for (const distance of ['Cosine', 'Dot', 'Euclid'] as const) {
    test(`${distance}: the same ids and the same f32 scores as in RAM, with no f32 block held`, async () => {
      const { ram, disk, random } = twinSlots(distance, 3000, 128, 21);
      assert.equal(disk.memory().values, 0);
      assert.ok(ram.memory().values >= 3000 * 128 * 4);
      for (let round = 0; round < 4; round++) {
        const query = prepareVector(
          Array.from({ length: 128 }, () => random() * 2 - 1),
          distance,
        );
        for (const k of [1, 10, 100]) {
          const request = { distance, query, k, tieBreak: byId };
          const onDisk = await searchNearest({ ...request, slots: disk });
          const inRam = await searchNearest({ ...request, slots: ram });
          assert.deepEqual(asPairs(onDisk), asPairs(inRam), `round ${round}, k ${k}`);
        }
      }
    });
  }

  test('a similarity search reads a bounded number of vectors, not the collection', async () => {
    const { disk, random, reads } = twinSlots('Cosine', 5000, 128, 4);
    const before = reads();
    const query = prepareVector(
      Array.from({ length: 128 }, () => random() * 2 - 1),
      'Cosine',
    );
    await searchNearest({ slots: disk, distance: 'Cosine', query, k: 10, tieBreak: byId });
    const read = reads() - before;
    assert.ok(read > 0 && read <= 10 + 4096, `read ${read} of 5,000 vectors`);
  });

  for (const distance of ['Cosine', 'Dot'] as const) {
    test(`${distance}: a write that outgrows the codes' scale reads no vector back; answers stay the in-RAM ones`, async () => {
      const { ram, disk, add, random, reads } = twinSlots(distance, 3000, 64, 31);
      const before = reads();
      // One component far past the largest seen: every code is re-scaled.
      const spiky = prepareVector(
        Array.from({ length: 64 }, (_, i) => (i === 0 ? 40 : random() - 0.5)),
        distance,
      );
      const scale = disk.scale;
      add(3000, spiky);
      assert.ok(disk.scale < scale, 're-scaled');
      assert.equal(reads() - before, 0, 'the write read no stored vector');
      assert.ok(disk.fineError > 0.5, 'the bound widened by the re-scaling');
      // The widened bound holds for every code (the same slots hold the same values in RAM).
      const values = ram.data() as Float32Array;
      const codes = disk.codes();
      let worst = 0;
      for (let i = 0; i < codes.length; i++) {
        worst = Math.max(worst, Math.abs((values[i] as number) * disk.scale - (codes[i] as number)));
      }
      assert.ok(worst <= disk.codeError, `a code ${worst} from its value, bound ${disk.codeError}`);
      for (let round = 0; round < 6; round++) {
        const query = prepareVector(
          Array.from({ length: 64 }, (_, i) => (round === 0 && i === 0 ? 40 : random() * 2 - 1)),
          distance,
        );
        for (const k of [1, 10, 100]) {
          const request = { distance, query, k, tieBreak: byId };
          const onDisk = await searchNearest({ ...request, slots: disk });
          const inRam = await searchNearest({ ...request, slots: ram });
          assert.deepEqual(asPairs(onDisk), asPairs(inRam), `round ${round}, k ${k}`);
        }
      }
    });
  }

  test('a search asked again reads nothing new; a rewritten vector is never served from the recent reads', async () => {
    const { disk, random, reads, stored } = twinSlots('Cosine', 5000, 128, 6);
    const query = prepareVector(
      Array.from({ length: 128 }, () => random() * 2 - 1),
      'Cosine',
    );
    const ask = () => searchNearest({ slots: disk, distance: 'Cosine', query, k: 10, tieBreak: byId });
    const first = await ask();
    const before = reads();
    assert.deepEqual(asPairs(await ask()), asPairs(first));
    assert.equal(reads(), before, 'served from the recent reads');
    // The best hit's point rewritten with the query itself: a new owner, so its new vector is read.
    const best = first[0]?.item as Owner;
    const owner = { slot: -1, id: best.id };
    stored.set(best.id, query);
    disk.replace(best.slot, owner, query);
    assert.deepEqual(disk.copy(owner.slot), query);
    const again = await ask();
    assert.equal(again[0]?.item, owner);
    assert.equal(again[0]?.score, scorerFor('Cosine')(query, 0, query));
  });

  test('moving back to RAM restores every value; removals and copies work in both modes', async () => {
    const { ram, disk } = twinSlots('Dot', 700, 16, 9);
    for (const slots of [ram, disk]) {
      slots.remove(3);
      slots.remove(slots.count - 1);
    }
    for (let slot = 0; slot < disk.count; slot++) assert.deepEqual(disk.copy(slot), ram.copy(slot));
    disk.moveToMemory();
    assert.equal(disk.onDisk, false);
    assert.deepEqual(disk.data(), ram.data());
    assert.equal(disk.memory().values, ram.memory().values);
    // Codes re-scaled on disk are rounded afresh from the values, as RAM's were.
    assert.deepEqual(disk.codes(), ram.codes());
    assert.equal(disk.codeError, 0.5);
  });

  test('moving to disk without a source to read from is refused', () => {
    assert.throws(() => new VectorSlots<Owner>(4).moveToDisk(), /no source/);
  });
});
