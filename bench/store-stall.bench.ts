/**
 * @module How long one embedded-store request can freeze its process: the worst event-loop stall (perf_hooks
 * monitorEventLoopDelay) while huge-limit reads run over HTTP against 100k points, alone and three at once,
 * with a 2 ms ticker standing in for the service's other requests. The clients run in a worker thread, as
 * another process would, so reading the big answers costs the measured event loop nothing.
 * Run: `node --import tsx bench/store-stall.bench.ts [--points N] [--dim D] [--only TEXT] [--gaps]`
 * (default 100000 x 384).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { serve } from '@hono/node-server';
import { openStoreEngine } from '../src/qdrant-server/engine/index.js';
import { seededRandom } from '../src/runtime/seeded-random.js';
import { createQdrantApp } from '../src/qdrant-server/http/qdrant-app.js';

function readFlag(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  return at < 0 ? fallback : Number(process.argv[at + 1]);
}

/** `--only TEXT`: run just the scenarios whose name contains TEXT (profiling one path). */
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
/** `--gaps`: also print where the worst gap was, in the monotonic microseconds a --cpu-prof profile uses. */
const printGaps = process.argv.includes('--gaps');
const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);

const POINTS = readFlag('--points', 100_000);
const DIM = readFlag('--dim', 384);
const HUGE = 1_000_000_000;

const dataDir = mkdtempSync(join(tmpdir(), 'mp-stall-bench-'));
const engine = openStoreEngine({ dataDir });
engine.createCollection('b', { vectors: { size: DIM, distance: 'Cosine', extras: {} }, settings: {} });
const collection = engine.collection('b');
const random = seededRandom(7);
const started = performance.now();
for (let first = 0; first < POINTS; first += 5_000) {
  const batch = [];
  for (let id = first; id < Math.min(POINTS, first + 5_000); id++) {
    const vector = Array.from({ length: DIM }, () => random() * 2 - 1);
    batch.push({
      id,
      vector,
      payload: { text: `memory number ${id} of the bench`, group: `g${id % 10}`, n: id },
    });
  }
  collection.upsert(batch);
}
console.log(`loaded ${POINTS} x ${DIM} in ${((performance.now() - started) / 1000).toFixed(1)} s`);

const app = createQdrantApp({ engine });
const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
  const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
});
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const query = Array.from({ length: DIM }, () => random() * 2 - 1);

/** Run before each measured round (untimed): a new point makes the next scroll fold it into the id order. */
let nextId = POINTS;
const insertOne = () =>
  collection.upsert([{ id: nextId++, vector: query, payload: { text: 'inserted', group: 'g0', n: -1 } }]);

const SCENARIOS: [string, string, unknown, (() => void)?][] = [
  ['search limit 10', '/collections/b/points/search', { vector: query, limit: 10, with_payload: true }],
  ['search limit 1e9', '/collections/b/points/search', { vector: query, limit: HUGE, with_payload: true }],
  ['search limit 1e9, no payload', '/collections/b/points/search', { vector: query, limit: HUGE }],
  ['search offset 1e9', '/collections/b/points/search', { vector: query, limit: 10, offset: HUGE }],
  ['query limit 1e9', '/collections/b/points/query', { query, limit: HUGE, with_payload: true }],
  [
    'query filter limit 1e9',
    '/collections/b/points/query',
    {
      query,
      limit: HUGE,
      filter: { must: [{ key: 'group', match: { value: 'g1' } }] },
      with_payload: true,
    },
  ],
  ['scroll limit 1e9', '/collections/b/points/scroll', { limit: HUGE, with_payload: true }],
  ['scroll order_by limit 1e9', '/collections/b/points/scroll', { limit: HUGE, order_by: 'n' }],
  ['scroll limit 10 after an insert', '/collections/b/points/scroll', { limit: 10 }, insertOne],
  ['query order_by limit 1e9', '/collections/b/points/query', { query: { order_by: 'n' }, limit: HUGE }],
  ['query without query limit 1e9', '/collections/b/points/query', { limit: HUGE, with_payload: true }],
  [
    'query rrf of 2 prefetches limit 1e9',
    '/collections/b/points/query',
    {
      prefetch: [
        { query, limit: HUGE },
        { query: { order_by: 'n' }, limit: HUGE },
      ],
      query: { fusion: 'rrf' },
      limit: HUGE,
    },
  ],
  ['count exact', '/collections/b/points/count', { exact: true }],
];
await fetch(`${url}/collections/b/index?wait=true`, {
  method: 'PUT',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ field_name: 'n', field_schema: 'integer' }),
});

// The clients: a worker thread that sends `copies` requests at once and counts the answers' bytes.
const clients = new Worker(
  `const { parentPort } = require('node:worker_threads');
  parentPort.on('message', async ({ url, body, copies }) => {
    const replies = await Promise.all(Array.from({ length: copies }, async () => {
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      let bytes = 0;
      for await (const chunk of response.body) bytes += chunk.byteLength;
      return { status: response.status, bytes };
    }));
    parentPort.postMessage(replies);
  });`,
  { eval: true },
);

function sendFromClients(
  path: string,
  body: unknown,
  copies: number,
): Promise<{ status: number; bytes: number }[]> {
  return new Promise((resolve) => {
    clients.once('message', resolve);
    clients.postMessage({ url: `${url}${path}`, body: JSON.stringify(body), copies });
  });
}

async function measure(path: string, body: unknown, copies: number) {
  // Two gauges: perf_hooks' histogram, and the largest gap between ticks of a 2 ms timer.
  const histogram = monitorEventLoopDelay({ resolution: 2 });
  let last = performance.now();
  let worstGap = 0;
  let gapWindow = [0, 0];
  const tick = () => {
    const now = performance.now();
    if (now - last > worstGap) {
      worstGap = now - last;
      const end = monotonicMicros();
      gapWindow = [end - worstGap * 1000, end];
    }
    last = now;
  };
  const ticker = setInterval(tick, 2);
  histogram.enable();
  const t0 = performance.now();
  const replies = await sendFromClients(path, body, copies);
  const wall = performance.now() - t0;
  tick();
  histogram.disable();
  clearInterval(ticker);
  return { wall, stall: Math.max(histogram.max / 1e6, worstGap), gapWindow, ...replies[0]! };
}

console.log(`scenario | copies | status | response MB | wall ms | worst event-loop stall ms`);
for (const [name, path, body, prepare] of SCENARIOS) {
  if (only !== undefined && !name.includes(only)) continue;
  for (const copies of [1, 3]) {
    prepare?.();
    await measure(path, body, 1); // warm-up
    prepare?.();
    const m = await measure(path, body, copies);
    console.log(
      `${name} | ${copies} | ${m.status} | ${(m.bytes / 1e6).toFixed(1)} | ${m.wall.toFixed(0)} | ${m.stall.toFixed(0)}`,
    );
    if (printGaps)
      console.log(`  worst gap: ${m.gapWindow.map((t) => t.toFixed(0)).join(' ')} µs (monotonic)`);
  }
}
await clients.terminate();
server.close();
engine.close();
rmSync(dataDir, { recursive: true, force: true });
