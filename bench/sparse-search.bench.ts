/**
 * @module Benchmark of the embedded store's sparse search: `idf` queries over chat-sized documents (Zipf-distributed
 * terms, about 12–40 distinct terms each), median and p95 latency beside a plain JS scan that scores every document,
 * and recall against that scan (must be 1.00: the engine's sparse search is exact). Two query sets: 8 draws from
 * the documents' own distribution, so most queries hold words found in nearly every document (text tokenized with
 * its stop words: the worst case), and 5 draws past the 100 most frequent words (a tokenizer that drops stop
 * words, as BM25 setups usually do).
 * Run: `node --import tsx bench/sparse-search.bench.ts [--quick]` (--quick: only 10k documents).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CollectionEngine, SparseVectorInput } from '../src/qdrant-server/engine/engine-api.js';
import { openStoreEngine } from '../src/qdrant-server/engine/index.js';
import { seededRandom } from '../src/runtime/seeded-random.js';
import { inverseDocumentFrequency } from '../src/qdrant-server/engine/sparse-search.js';

const QUICK = process.argv.includes('--quick');
const COUNTS = QUICK ? [10_000] : [10_000, 100_000];
const VOCABULARY = 50_000;
const QUERIES = 50;
const LIMIT = 10;
/** The most frequent words that content-word queries leave out. */
const STOP_WORDS = 100;
/**
 * p50 ms before the typed-array index (main at 6259b76, MaxScore over per-document merges), stop-word queries:
 * 10k from a quiet run, 100k from a loaded one; a paired run beside the new index measured 19–29 ms at 100k.
 */
const BEFORE_MS: ReadonlyMap<number, number> = new Map([
  [10_000, 2.73],
  [100_000, 65],
]);

/**
 * Draws term ids with probability ∝ 1/rank (word frequencies in chat text are close to Zipf's law), never one
 * of the `skipped` most frequent.
 */
function zipf(random: () => number, skipped = 0): () => number {
  const cumulative = new Float64Array(VOCABULARY);
  let sum = 0;
  for (let rank = 1; rank <= VOCABULARY; rank++) {
    if (rank > skipped) sum += 1 / rank;
    cumulative[rank - 1] = sum;
  }
  return () => {
    const target = random() * sum;
    let lo = 0;
    let hi = VOCABULARY - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((cumulative[mid] as number) < target) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/** A document or query: `length` draws, counted as term frequencies. */
function bagOfTerms(draw: () => number, length: number): SparseVectorInput {
  const counts = new Map<number, number>();
  for (let i = 0; i < length; i++) {
    const term = draw();
    counts.set(term, (counts.get(term) ?? 0) + 1);
  }
  return { indices: [...counts.keys()], values: [...counts.values()] };
}

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

/** Scores every document with idf-weighted query terms, keeping the best `LIMIT` ids (ties by id). */
function bruteForce(docs: readonly SparseVectorInput[], query: SparseVectorInput): number[] {
  const df = new Map<number, number>();
  for (const doc of docs) for (const index of doc.indices) df.set(index, (df.get(index) ?? 0) + 1);
  const weights = new Map(
    query.indices.map((index, i) => [
      index,
      (query.values[i] as number) * inverseDocumentFrequency(docs.length, df.get(index) ?? 0),
    ]),
  );
  const scored: [number, number][] = [];
  docs.forEach((doc, id) => {
    let score = 0;
    let shared = false;
    doc.indices.forEach((index, i) => {
      const weight = weights.get(index);
      if (weight === undefined) return;
      shared = true;
      score += weight * (doc.values[i] as number);
    });
    if (shared) scored.push([id, score]);
  });
  scored.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  return scored.slice(0, LIMIT).map(([id]) => id);
}

interface QuerySet {
  readonly name: string;
  readonly queries: readonly SparseVectorInput[];
}

/** Times every query of a set on the engine and on the full scan; p50/p95 and recall against the scan. */
async function measure(collection: CollectionEngine, docs: readonly SparseVectorInput[], set: QuerySet) {
  const engine: number[] = [];
  const brute: number[] = [];
  let matched = 0;
  for (const query of set.queries) {
    const start = performance.now();
    const hits = await collection.query({
      withPayload: { kind: 'none' },
      withVector: false,
      query: { kind: 'nearest', vector: query },
      using: 'text',
      prefetch: [],
      limit: LIMIT,
      offset: 0,
    });
    engine.push(performance.now() - start);
    const bruteStart = performance.now();
    const expected = bruteForce(docs, query);
    brute.push(performance.now() - bruteStart);
    const got = new Set(hits.map((hit) => hit.id));
    matched += expected.filter((id) => got.has(id)).length / Math.max(1, expected.length);
  }
  return {
    p50: percentile(engine, 50),
    p95: percentile(engine, 95),
    scan: percentile(brute, 50),
    recall: matched / set.queries.length,
  };
}

async function run(count: number): Promise<void> {
  const random = seededRandom(count);
  const draw = zipf(random);
  const docs = Array.from({ length: count }, () => bagOfTerms(draw, 15 + Math.floor(random() * 35)));
  const sets: QuerySet[] = [
    { name: 'stop-word queries', queries: Array.from({ length: QUERIES }, () => bagOfTerms(draw, 8)) },
  ];
  const content = zipf(random, STOP_WORDS);
  sets.push({
    name: 'content-word queries',
    queries: Array.from({ length: QUERIES }, () => bagOfTerms(content, 5)),
  });
  const dataDir = mkdtempSync(join(tmpdir(), 'mp-sparse-bench-'));
  const store = openStoreEngine({ dataDir });
  try {
    store.createCollection('s', {
      vectors: null,
      sparseVectors: { text: { modifier: 'idf' } },
      settings: {},
    });
    const collection = store.collection('s');
    const upsertStart = performance.now();
    for (let start = 0; start < count; start += 512) {
      collection.upsert(
        docs
          .slice(start, start + 512)
          .map((doc, i) => ({ id: start + i, vector: { text: doc }, payload: {} })),
      );
    }
    const upsertMs = performance.now() - upsertStart;
    console.log(`${String(count).padStart(7)} docs: upsert ${Math.round(count / (upsertMs / 1000))}/s`);
    // Warm-up, so the first timed queries are not the ones that compile the search.
    await measure(collection, [], { name: 'warm-up', queries: sets[0]?.queries.slice(0, 5) ?? [] });
    for (const set of sets) {
      const r = await measure(collection, docs, set);
      const before = set === sets[0] ? BEFORE_MS.get(count) : undefined;
      console.log(
        `  ${set.name.padEnd(21)} idf query p50 ${r.p50.toFixed(2)} ms, p95 ${r.p95.toFixed(2)} ms; ` +
          `JS full scan p50 ${r.scan.toFixed(1)} ms (${(r.scan / r.p50).toFixed(1)}x); recall ${r.recall.toFixed(2)}` +
          (before === undefined ? '' : `; before 6259b76 ${before} ms`),
      );
    }
  } finally {
    store.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log(
  `memory-pool embedded store sparse benchmark: Node ${process.version}${QUICK ? ', --quick' : ''}`,
);
for (const count of COUNTS) await run(count);
