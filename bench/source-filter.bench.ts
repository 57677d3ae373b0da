/**
 * @module What hybrid recall's `is_empty source` filter (the chunks without parts: SillyTavern's) costs the
 * chunk search on a folder recall-latency.bench.ts kept (`--keep DIR`), and whether a keyword payload index on
 * `source` removes it. Adds `--st N` SillyTavern points (no `source`) to the kept collection once, then in each
 * round, in alternating order: the filtered search and count without the index, the same with it (created and
 * deleted each round, so both run on the same points), and the search and count with no filter, for scale.
 * Run: node --import tsx bench/source-filter.bench.ts DIR [--rounds 40] [--st 200]
 *
 * Measured (session 26, a copy of a 10,046-chunk folder, --st 200 --rounds 80, load average 5.7 on 2 shared
 * cores), p50 without / with the index: search with the filter 4.43 / 4.72 ms, count with it 2.82 / 3.10 ms;
 * with no filter, search 5.32 / 5.83 ms, count 1.04 / 1.05 ms. The filter's own test is the count's ~1.8 ms
 * over the request's; the index changes nothing here: the embedded store's filters consult no index but a
 * text one (IndexLookup, src/qdrant-server/filter/filter-api.ts), so each search still reads every point's
 * payload. Real Qdrant may answer `is_empty` from the index; not measured (no Qdrant here).
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startQdrantServer } from '../src/qdrant-server/http/server.js';
import { seededRandom } from '../src/runtime/seeded-random.js';

const { values: args, positionals } = parseArgs({
  options: { rounds: { type: 'string', default: '40' }, st: { type: 'string', default: '200' } },
  allowPositionals: true,
});
const dir = positionals[0];
if (dir === undefined)
  throw new Error('usage: source-filter.bench.ts DIR (kept by recall-latency.bench.ts --keep DIR)');
const CHUNKS = '/collections/mem_mythos';
const WITHOUT_SOURCE = { must: [{ is_empty: { key: 'source' } }] };
const store = await startQdrantServer({ dataDir: join(dir, 'qdrant'), port: 0 });

/** Sends a request to the store; resolves with its result and the milliseconds it took. */
async function call(method: string, path: string, body?: unknown): Promise<{ ms: number; result: unknown }> {
  const started = performance.now();
  const response = await fetch(`${store.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await response.json()) as { result: unknown };
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return { ms: performance.now() - started, result: json.result };
}

const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const random = seededRandom(26);
const unitVector = (dim: number) => {
  const v = Array.from({ length: dim }, () => random() - 0.5);
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
};

try {
  const info = (await call('GET', CHUNKS)).result as {
    points_count: number;
    config: { params: { vectors: { size: number } } };
  };
  const dim = info.config.params.vectors.size;
  const counted = await call('POST', `${CHUNKS}/points/count`, { filter: WITHOUT_SOURCE, exact: true });
  let st = (counted.result as { count: number }).count;
  const wanted = Number(args.st);
  if (st < wanted) {
    // SillyTavern's points, as st-qdrant-memory writes them: no `source`, ids of their own.
    const points = Array.from({ length: wanted - st }, (_, i) => ({
      id: 9_000_000 + st + i,
      vector: unitVector(dim),
      payload: { text: `[2025-01-01]\nAnna: st point ${st + i}`, messageIds: `st_${st + i}`, isChunk: true },
    }));
    await call('PUT', `${CHUNKS}/points?wait=true`, { points });
    st = wanted;
  }
  await call('DELETE', `${CHUNKS}/index/source?wait=true`).catch(() => undefined);
  const times: Record<string, number[]> = {};
  const time = async (stage: string, run: () => Promise<{ ms: number }>) => {
    const { ms } = await run();
    const list = times[stage] ?? [];
    list.push(ms);
    times[stage] = list;
  };
  const stages = (indexed: string) => {
    const vector = unitVector(dim);
    const search = { vector, limit: 10, score_threshold: 0.3, with_payload: true };
    return [
      () =>
        time(`search, is_empty source, ${indexed}`, () =>
          call('POST', `${CHUNKS}/points/search`, { ...search, filter: WITHOUT_SOURCE }),
        ),
      () =>
        time(`count, is_empty source, ${indexed}`, () =>
          call('POST', `${CHUNKS}/points/count`, { filter: WITHOUT_SOURCE, exact: true }),
        ),
      () => time(`search, no filter, ${indexed}`, () => call('POST', `${CHUNKS}/points/search`, search)),
      // A request that tests no payload: what HTTP and the store's dispatch cost alone.
      () =>
        time(`count, no filter, ${indexed}`, () => call('POST', `${CHUNKS}/points/count`, { exact: true })),
    ];
  };
  const withIndex = async () => {
    await call('PUT', `${CHUNKS}/index?wait=true`, { field_name: 'source', field_schema: 'keyword' });
    for (const stage of stages('keyword index')) await stage();
    await call('DELETE', `${CHUNKS}/index/source?wait=true`);
  };
  const withoutIndex = async () => {
    for (const stage of stages('no index')) await stage();
  };
  for (let round = 0; round < Number(args.rounds); round++) {
    // Alternating which goes first, so a warm-up or a burst of load favors neither.
    if (round % 2 === 0) await withoutIndex().then(withIndex);
    else await withIndex().then(withoutIndex);
  }
  const total = ((await call('GET', CHUNKS)).result as { points_count: number }).points_count;
  console.log(`${total} points in mem_mythos, ${st} of them without source (SillyTavern's)`);
  for (const [stage, values] of Object.entries(times).sort())
    console.log(`${stage}: p50 ${median(values).toFixed(2)} ms`);
  console.log(`(${args.rounds} rounds; load average ${loadavg()[0]!.toFixed(1)}: shared machine, noisy)`);
} finally {
  await store.close();
}
