/**
 * @module Where a /retrieve's time goes at 10,000 chunks: on a folder recall-latency.bench.ts stored and kept
 * (`--keep DIR`), each stage timed alone, one after another: the query's embedding by the offline model, the
 * three store searches hybrid recall makes (the chunks without parts, the parts by vector, the parts by
 * words; the same requests search-hybrid.ts sends), then the three at once, as recall sends them. Also the
 * parts' dense search with a stored vector as the query, to show what the vectors' content costs the search.
 * Run: node --import tsx bench/recall-stages.bench.ts DIR [--queries 40] [--no-graph-wait]
 * `--no-graph-wait` starts asking at once instead of after the graphs' rebuild (minutes at 30,000 chunks on a
 * loaded machine): the filtered chunk search and the lexical search never use a graph; the dense stages are
 * then exact, and the rebuild's slices run beside every stage.
 * Like the service, it asks for the keyword index on the chunks' `source` first (a no-op when it is there).
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { OfflineEmbedder, closeOfflineModel } from '../src/embedding/offline/offline-embedder.js';
import { encodeQueryTerms } from '../src/parts/sparse-vector.js';
import { tokenizeText } from '../src/parts/tokenize-text.js';
import { startQdrantServer } from '../src/qdrant-server/http/server.js';
import { awaitStoreGraphs } from './support/await-store-graphs.js';

const { values: args, positionals } = parseArgs({
  options: {
    queries: { type: 'string', default: '40' },
    'no-graph-wait': { type: 'boolean', default: false },
  },
  allowPositionals: true,
});
const dir = positionals[0];
if (dir === undefined)
  throw new Error('usage: recall-stages.bench.ts DIR (a folder kept by recall-latency.bench.ts --keep DIR)');
const CHUNKS = '/collections/mem_mythos';
const PARTS = '/collections/mem_mythos__parts';
const PART_FIELDS = ['chunkId', 'messageIds'];

const store = await startQdrantServer({ dataDir: join(dir, 'qdrant'), port: 0 });
// The service asks for this index at start-up (store/service-indexes.ts); a folder kept before it did lacks it.
await fetch(`${store.url}${CHUNKS}/index?wait=true`, {
  method: 'PUT',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ field_name: 'source', field_schema: 'keyword' }),
});
const offline = new OfflineEmbedder();
if (args['no-graph-wait']) {
  console.log(
    'not waiting for the approximate indexes: dense searches are exact while they build, beside them',
  );
} else {
  const waited = await awaitStoreGraphs(store.url);
  console.log(`approximate indexes complete after ${waited.toFixed(1)} s (searches are exact until then)`);
}

/** POSTs to the store; resolves with the milliseconds it took. */
async function timePost(path: string, body: unknown): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${store.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${path}: ${response.status} ${text}`);
  return performance.now() - started;
}

const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
try {
  const scrolled = await fetch(`${store.url}${PARTS}/points/scroll`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ limit: Number(args.queries), with_vector: true }),
  });
  const stored = ((await scrolled.json()) as { result: { points: { vector: { dense: number[] } }[] } }).result
    .points;
  await offline.embed(['warm up'], { query: true });
  const times: Record<string, number[]> = {
    embedding: [],
    'chunks without parts': [],
    'parts by vector': [],
    'parts by vector, a stored vector as the query': [],
    'parts by words': [],
    'the three searches at once': [],
  };
  const time = async (stage: string, run: () => Promise<unknown>) => {
    const started = performance.now();
    await run();
    times[stage]!.push(performance.now() - started);
  };
  for (let i = 0; i < Number(args.queries); i++) {
    const question = `What did Anna say about the garden and the marathon? (${i})`;
    let vector: number[] = [];
    await time('embedding', async () => {
      vector = Array.from((await offline.embed([question], { query: true }))[0]!);
    });
    const chunks = {
      vector,
      limit: 10,
      filter: { must: [{ is_empty: { key: 'source' } }] },
      with_payload: true,
      score_threshold: 0.3,
    };
    const dense = {
      query: vector,
      using: 'dense',
      score_threshold: 0.3,
      limit: 40,
      with_payload: PART_FIELDS,
    };
    const words = {
      query: encodeQueryTerms(tokenizeText(question)),
      using: 'bm25',
      limit: 40,
      with_payload: PART_FIELDS,
    };
    const own = stored[i % stored.length]!.vector.dense;
    await time('chunks without parts', () => timePost(`${CHUNKS}/points/search`, chunks));
    await time('parts by vector', () => timePost(`${PARTS}/points/query`, dense));
    await time('parts by vector, a stored vector as the query', () =>
      timePost(`${PARTS}/points/query`, { ...dense, query: own }),
    );
    await time('parts by words', () => timePost(`${PARTS}/points/query`, words));
    await time('the three searches at once', () =>
      Promise.all([
        timePost(`${CHUNKS}/points/search`, chunks),
        timePost(`${PARTS}/points/query`, dense),
        timePost(`${PARTS}/points/query`, words),
      ]),
    );
  }
  for (const [stage, values] of Object.entries(times))
    console.log(`${stage}: p50 ${median(values).toFixed(1)} ms`);
  console.log(`(${args.queries} queries; load average ${loadavg()[0]!.toFixed(1)}: shared machine, noisy)`);
} finally {
  await store.close();
  // A worker stopped inside ONNX Runtime's run aborts the process: the pool ends its jobs before the exit.
  await closeOfflineModel();
  process.exit(0);
}
