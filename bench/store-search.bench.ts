/**
 * @module Benchmark of the embedded store's engine: upsert throughput, exact search latency with and without a
 * payload filter, resident memory per 100k points, beside a plain brute-force JS scan of the same data, with
 * recall of the engine against that scan (must be 1.00: the engine's search is exact).
 * Run: `node --import tsx bench/store-search.bench.ts [--quick] [--on-disk]` (--quick: only the 10k sets;
 * --on-disk: the vectors' f32 values on disk, Qdrant's `on_disk: true`, read back from SQLite to re-score).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Filter } from '../src/qdrant-server/filter/filter-ast.js';
import { parseFilter } from '../src/qdrant-server/filter/index.js';
import type { CollectionEngine, ReadOptions } from '../src/qdrant-server/engine/engine-api.js';
import { prepareVector } from '../src/qdrant-server/engine/f32.js';
import { seededRandom } from '../src/runtime/seeded-random.js';
import { openStoreEngine } from '../src/qdrant-server/engine/index.js';
import { type StoreFigures, printBesideBaseline } from './support/store-baseline.js';

interface DataSet {
  readonly count: number;
  readonly dim: number;
}

const QUICK = process.argv.includes('--quick');
const ON_DISK = process.argv.includes('--on-disk');
const SETS: DataSet[] = [
  { count: 10_000, dim: 1536 },
  { count: 10_000, dim: 3072 },
  ...(QUICK
    ? []
    : [
        { count: 100_000, dim: 1536 },
        { count: 100_000, dim: 3072 },
      ]),
];
const BATCH = 256;
const GROUPS = 10;
const LIMIT = 10;
const NO_PAYLOAD: ReadOptions = { withPayload: { kind: 'none' }, withVector: false };

function randomUnitVector(random: () => number, dim: number): Float32Array {
  return prepareVector(
    Array.from({ length: dim }, () => random() * 2 - 1),
    'Cosine',
  );
}

/** All vectors of a data set, exactly as the engine stores them, in one block for the brute-force scan. */
function generate(set: DataSet, seed: number): Float32Array {
  const random = seededRandom(seed);
  const data = new Float32Array(set.count * set.dim);
  for (let i = 0; i < set.count; i++) data.set(randomUnitVector(random, set.dim), i * set.dim);
  return data;
}

function groupOf(id: number): string {
  return `g${id % GROUPS}`;
}

/** The straightforward exact search: score every point, keep the best `k` (ties by id). */
function bruteForce(
  data: Float32Array,
  dim: number,
  query: Float32Array,
  k: number,
  keep?: (id: number) => boolean,
): number[] {
  const best: { id: number; score: number }[] = [];
  const count = data.length / dim;
  for (let id = 0; id < count; id++) {
    if (keep !== undefined && !keep(id)) continue;
    let score = 0;
    const offset = id * dim;
    for (let j = 0; j < dim; j++) score += (data[offset + j] as number) * (query[j] as number);
    if (best.length === k && score <= (best[k - 1] as { score: number }).score) continue;
    best.push({ id, score });
    best.sort((a, b) => b.score - a.score || a.id - b.id);
    if (best.length > k) best.pop();
  }
  return best.map((hit) => hit.id);
}

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

function time<T>(run: () => T): { ms: number; value: T } {
  const start = performance.now();
  const value = run();
  return { ms: performance.now() - start, value };
}

async function timeAsync<T>(run: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await run();
  return { ms: performance.now() - start, value };
}

// `npm run bench` starts node without --expose-gc; enabling it here lets RSS be read after a full collection.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** Resident set size, and what the JS heap plus ArrayBuffers hold (the engine's own retained memory), in MB. */
function memoryMb(): { rss: number; retained: number } {
  // One collection can leave garbage that only the next one frees (weakly held and finalized objects).
  for (let i = 0; i < 3; i++) collectGarbage();
  const usage = process.memoryUsage();
  return { rss: usage.rss / 2 ** 20, retained: (usage.heapUsed + usage.arrayBuffers) / 2 ** 20 };
}

function fmt(ms: number): string {
  return ms < 10 ? ms.toFixed(2) : ms.toFixed(1);
}

function upsertAll(collection: CollectionEngine, data: Float32Array, set: DataSet): number {
  const { ms } = time(() => {
    for (let start = 0; start < set.count; start += BATCH) {
      const points = [];
      for (let id = start; id < Math.min(set.count, start + BATCH); id++) {
        const vector = Array.from(data.subarray(id * set.dim, (id + 1) * set.dim));
        points.push({ id, vector, payload: { group: groupOf(id), n: id, text: `point number ${id}` } });
      }
      collection.upsert(points);
    }
  });
  return set.count / (ms / 1000);
}

/** The filters measured: a thin one (a tenth of the points) and one keeping half of them. */
const FILTERS = [
  {
    name: 'search + filter',
    note: 'group = g3, 10% of points',
    filter: parseFilter({ must: [{ key: 'group', match: { value: 'g3' } }] }) as Filter,
    keep: (id: number) => groupOf(id) === 'g3',
  },
  {
    name: 'search + half',
    note: 'group in g0..g4, 50% of points',
    filter: parseFilter({
      must: [{ key: 'group', match: { any: ['g0', 'g1', 'g2', 'g3', 'g4'] } }],
    }) as Filter,
    keep: (id: number) => id % GROUPS < GROUPS / 2,
  },
] as const;

interface Timings {
  readonly name: string;
  readonly engine: number[];
  readonly brute: number[];
}

async function measureSearches(
  collection: CollectionEngine,
  data: Float32Array,
  set: DataSet,
  queries: Float32Array[],
) {
  const cases = [{ name: 'search', filter: undefined, keep: undefined }, ...FILTERS];
  const timings: Timings[] = cases.map(({ name }) => ({ name, engine: [], brute: [] }));
  let matched = 0;
  let total = 0;
  for (const query of queries) {
    const vector = Array.from(query);
    for (const [i, { filter, keep }] of cases.entries()) {
      const found = await timeAsync(() =>
        collection.search({ ...NO_PAYLOAD, vector, limit: LIMIT, offset: 0, ...(filter ? { filter } : {}) }),
      );
      const reference = time(() => bruteForce(data, set.dim, query, LIMIT, keep));
      timings[i]?.engine.push(found.ms);
      timings[i]?.brute.push(reference.ms);
      const ids = new Set(found.value.map((hit) => hit.id));
      matched += reference.value.filter((id) => ids.has(id)).length;
      total += reference.value.length;
    }
  }
  return { timings, recall: matched / total };
}

/** Creates the collection in a store of its own, upserts every point, closes it; returns points per second. */
function writeCollection(dataDir: string, data: Float32Array, set: DataSet): number {
  const store = openStoreEngine({ dataDir });
  store.createCollection('bench', {
    vectors: { size: set.dim, distance: 'Cosine', extras: ON_DISK ? { on_disk: true } : {} },
    // The exact search is what this bench measures: no approximate index (graph-search.ts), none built meanwhile.
    settings: { hnsw_config: { m: 0 } },
  });
  const throughput = upsertAll(store.collection('bench'), data, set);
  store.close();
  return throughput;
}

const results: StoreFigures[] = [];

async function runSet(set: DataSet): Promise<void> {
  const label = `${set.count / 1000}k x ${set.dim}`;
  const data = generate(set, set.count + set.dim);
  const random = seededRandom(99);
  const queries = Array.from({ length: set.count >= 100_000 ? 30 : 60 }, () =>
    randomUnitVector(random, set.dim),
  );
  const dataDir = mkdtempSync(join(tmpdir(), 'mp-bench-'));
  try {
    const baseline = memoryMb();
    const throughput = writeCollection(dataDir, data, set);
    // Reopen to measure what a loaded collection costs in memory, without the upsert's garbage (the writing
    // store is out of scope by now, so `before` does not count it).
    const before = memoryMb();
    const reopened = time(() => openStoreEngine({ dataDir }));
    const store = reopened.value;
    const after = memoryMb();
    const collection = store.collection('bench');
    for (const query of queries.slice(0, 3))
      await collection.search({ ...NO_PAYLOAD, vector: Array.from(query), limit: LIMIT, offset: 0 });
    const r = await measureSearches(collection, data, set, queries);
    store.close();
    const per100k = (mb: number) => Math.round((mb * 100_000) / set.count);
    const raw = (set.dim * 4 * 100_000) / 2 ** 20;
    console.log(`\n${label} (Cosine, top ${LIMIT}, ${queries.length} queries)`);
    console.log(
      `  upsert            ${Math.round(throughput).toLocaleString('en')} points/s (batches of ${BATCH}, committed each)`,
    );
    console.log(`  reopen (load)     ${fmt(reopened.ms)} ms`);
    console.log(
      `  memory per 100k   RSS +${per100k(after.rss - baseline.rss)} MB since before the first open (upper bound: freed pages stay mapped); retained by the loaded store ${per100k(after.retained - before.retained)} MB; raw f32 vectors ${Math.round(raw)} MB`,
    );
    const retained = per100k(after.retained - before.retained);
    console.log(`  memory / raw f32  ${(retained / raw).toFixed(2)}x (retained per 100k / raw f32)`);
    console.log(
      '                    p50 ms   p99 ms   brute p50   brute p99   speed-up (p50)   vs unfiltered (p50)',
    );
    const plainP50 = percentile(r.timings[0]?.engine ?? [], 50);
    for (const { name, engine, brute } of r.timings) {
      const p50 = percentile(engine, 50);
      const bp50 = percentile(brute, 50);
      console.log(
        `  ${name.padEnd(17)} ${fmt(p50).padStart(6)}   ${fmt(percentile(engine, 99)).padStart(6)}   ${fmt(bp50).padStart(9)}   ${fmt(percentile(brute, 99)).padStart(9)}   ${`${(bp50 / p50).toFixed(1)}x`.padStart(14)}   ${(p50 / plainP50).toFixed(2)}x`,
      );
    }
    console.log(
      `  recall vs brute   ${r.recall.toFixed(2)} (filters: ${FILTERS.map((f) => f.note).join('; ')})`,
    );
    results.push({
      set: label,
      searchMs: plainP50,
      filterMs: percentile(r.timings[1]?.engine ?? [], 50),
      halfMs: percentile(r.timings[2]?.engine ?? [], 50),
      bruteMs: percentile(r.timings[0]?.brute ?? [], 50),
      memoryRatio: retained / raw,
    });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log(
  `memory-pool embedded store benchmark: Node ${process.version}, ${cpus().length} cores${QUICK ? ', --quick' : ''}${ON_DISK ? ', vectors on disk' : ''}`,
);
for (const set of SETS) await runSet(set);
printBesideBaseline(results);
