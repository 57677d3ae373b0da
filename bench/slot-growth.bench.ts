/**
 * @module What storing vectors costs the embedded store's slots (vector-slots.ts) in RAM and on disk (`on_disk`):
 * appending N vectors one by one, which grows the blocks by half each time they fill (the growth that took 0.41 s
 * of a 2.5 s upsert phase in a profile, docs/growth.md "Writes"). On disk only the int8 codes grow, a fifth of
 * the bytes. Alternates the two, `--rounds` times, and prints each round with the load.
 * Run: node --import tsx bench/slot-growth.bench.ts [--vectors 300000] [--dim 512] [--rounds 3]
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { prepareVector } from '../src/qdrant-server/engine/f32.js';
import { VectorSlots } from '../src/qdrant-server/engine/vector-slots.js';
import { seededRandom } from '../src/runtime/seeded-random.js';

const { values: args } = parseArgs({
  options: {
    vectors: { type: 'string', default: '300000' },
    dim: { type: 'string', default: '512' },
    rounds: { type: 'string', default: '3' },
  },
});
const [count, dim, rounds] = [Number(args.vectors), Number(args.dim), Number(args.rounds)];
const random = seededRandom(1);
// A few distinct vectors reused: what is measured is the slots' own work, not making vectors.
const pool = Array.from({ length: 64 }, () =>
  prepareVector(
    Array.from({ length: dim }, () => random() * 2 - 1),
    'Cosine',
  ),
);
const timings = { ram: [] as number[], disk: [] as number[] };
for (let round = 0; round < rounds; round++) {
  for (const mode of round % 2 === 0 ? (['ram', 'disk'] as const) : (['disk', 'ram'] as const)) {
    const slots = new VectorSlots<{ slot: number; id: number }>(dim);
    // Only a re-quantizing reads the source; the pool stands in for SQLite.
    slots.source = (owners) => owners.map((owner) => pool[owner.id % pool.length]);
    if (mode === 'disk') slots.moveToDisk();
    const started = performance.now();
    for (let id = 0; id < count; id++) slots.add({ slot: -1, id }, pool[id % pool.length] as Float32Array);
    const ms = performance.now() - started;
    timings[mode].push(ms);
    const { values, codes } = slots.memory();
    console.log(
      `round ${round + 1} ${mode}: ${count.toLocaleString('en')} x ${dim} added in ${ms.toFixed(0)} ms (f32 ${(values / 2 ** 20).toFixed(0)} MB, codes ${(codes / 2 ** 20).toFixed(0)} MB), load ${loadavg()[0]?.toFixed(1)}`,
    );
  }
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
console.log(
  `median: in RAM ${median(timings.ram).toFixed(0)} ms, on disk ${median(timings.disk).toFixed(0)} ms`,
);
