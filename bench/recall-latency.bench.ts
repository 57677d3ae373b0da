/**
 * @module /retrieve latency on a large collection (issue 12: p50 at most 30 ms at 10,000 chunks, offline
 * embedder): stores N default-size chunks (and their parts) of synthetic chat through /save, then asks new
 * and repeated questions through HTTP with the product's defaults (limit 5, hybrid recall).
 * Run: node --import tsx bench/recall-latency.bench.ts [--chunks N] [--queries N] [--keep DIR [--resume]] [--hashing] [--each]
 * `--keep DIR` stores into DIR and keeps it; a later run with the same DIR skips storing and only asks (so
 * two builds can be compared on one collection, run after run).
 * Side by side: `--keep DIR --compare TREE --compare-keep DIR2` (DIR2 a copy of DIR; TREE e.g. `git archive
 * main` extracted, node_modules linked) runs this tree and TREE as `memory-pool serve`, both at once, and
 * asks them the same questions in alternation (bench/support/compare-recall-latency.ts).
 *
 * Measured (issue 27), --queries 200 --compare main's copy (10,046 kept chunks), three runs: this branch new
 * query p50 107.4 / 91.8 / 35.3 ms (p95 209.9 / 193.7 / 59.3), main 122.3 / 100.0 / 43.9 ms (p95 273.6 /
 * 251.8 / 72.2); repeated query 60.3 / 55.8 / 22.1 ms against 59.1 / 51.6 / 21.7 ms; load average 9.1-10.3,
 * 6.7-7.0 and 2.5-2.7 on 2 shared cores. In-process (--queries 200 --keep), main then this branch, load
 * 2.6-3.2: new query p50 40.1 → 31.4 ms, repeated 19.7 → 20.8 ms (the lead's figure before, load 1.4: 44.4 /
 * 21.3 ms).
 *
 * Storing goes through the real write path, but the chunks' and parts' dense vectors come from a fast
 * stand-in (recorded under the offline model's name): embedding 10,000 chunks and their ~90,000 parts with
 * USE-lite would take hours on a shared 2-core machine. The stand-in is the normalized sum of the real
 * model's vectors of the phrases a text names (people, things, feelings: a few dozen texts embedded once)
 * plus a little feature hashing, so a question's real vector lies near the texts it asks about, as with the
 * real model. What the vectors hold matters: the store's search stops early only when its int8 pass proves
 * the best candidates (vector-search.ts), which fails when every score is near 0, as between pure hashing
 * vectors and real queries (the parts' dense search at 10,000 chunks took 125 ms for a real query, 45 ms
 * for one of the stored vectors as the query, load 14). `--hashing`
 * stores pure hashing vectors, as before. The lexical index holds the real terms, and every query is
 * embedded by the real offline model.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { configSchema } from '../src/config/config-schema.js';
import type { MemoryPoolConfig } from '../src/config/config-types.js';
import { CachedEmbedder } from '../src/embedding/cached-embedder.js';
import type { Embedder } from '../src/embedding/embedder.js';
import { HashingEmbedder } from '../src/embedding/hashing/hashing-embedder.js';
import { OfflineEmbedder } from '../src/embedding/offline/offline-embedder.js';
import { createLogger } from '../src/logging/logger.js';
import { seededRandom } from '../src/runtime/seeded-random.js';
import { startStoreThread } from '../src/qdrant-server/thread/start-store-thread.js';
import { startMemoryService } from '../src/service/start-memory-service.js';
import { awaitStoreGraphs } from './support/await-store-graphs.js';
import { type StageRecord, startStageTimer, summarizeStages } from './support/recall-stage-timer.js';

const argValue = (name: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const argNumber = (name: string, fallback: number) => Number(argValue(name) ?? fallback);
const CHUNKS = argNumber('--chunks', 10_000);
const QUERIES = argNumber('--queries', 200);
/** A default chunk (1200/1500 characters) holds about 10 of these messages (140 characters each). */
const MESSAGES_PER_CHUNK = 10;
const MESSAGES_PER_SAVE = 70;

const random = seededRandom(12);
const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
const PEOPLE = ['Anna', 'Ben', 'Chloe', 'Dmitri', 'Elena', 'Farid', 'Grace', 'Hiro', 'Ines', 'Jonas'];
const THINGS = [
  'a kitten named Miso',
  'the pottery class',
  'a trip to Lisbon',
  'the marathon',
  'a new guitar',
  'the garden',
  'a chess tournament',
  'sourdough bread',
  'the old lighthouse',
  'a job interview',
  'the book club',
  'a broken bike',
  'the art show',
  'a camping weekend',
  'piano lessons',
  'a birthday party',
  'the concert',
  'a volunteering shift',
  'the new apartment',
  'a hiking trail',
  'the photography course',
  'a road trip',
];
const FEELINGS = ['excited about', 'worried about', 'proud of', 'tired of', 'curious about', 'happy with'];
const VERBS = ['told me about', 'asked about', 'finally finished', 'started planning', 'keeps mentioning'];
const line = (i: number) =>
  random() < 0.5
    ? `I am ${pick(FEELINGS)} ${pick(THINGS)}; ${pick(PEOPLE)} ${pick(VERBS)} it on day ${i % 365}, and ${pick(PEOPLE)} ${pick(VERBS)} ${pick(THINGS)} too.`
    : `That sounds great! How did ${pick(PEOPLE)} feel about ${pick(THINGS)} after ${pick(THINGS)}? I am ${pick(FEELINGS)} ${pick(THINGS)} myself.`;

const percentile = (values: readonly number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
const spread = (values: readonly number[]) =>
  `p50 ${fmt(percentile(values, 50))}, p95 ${fmt(percentile(values, 95))}, p99 ${fmt(percentile(values, 99))}`;
/** Bytes of every file under `path`, as the data folder's size on disk. */
const sizeOf = (path: string): number =>
  statSync(path).isDirectory()
    ? readdirSync(path).reduce((sum, name) => sum + sizeOf(join(path, name)), 0)
    : statSync(path).size;
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;

async function post(url: string, body: unknown): Promise<{ ms: number; json: unknown }> {
  const started = performance.now();
  let response: Response;
  try {
    response = await send(url, body);
  } catch {
    // A kept-alive socket the server closed while idle (the writer ran between saves): send once more.
    response = await send(url, body);
  }
  const json: unknown = await response.json();
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status} ${JSON.stringify(json)}`);
  return { ms: performance.now() - started, json };
}

const send = (url: string, body: unknown) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/**
 * With --each, every question asks about two people apart ("What did Anna and Ben each say about ...?"), which
 * recall searches once per person (src/retrieval/split-question.ts): the second look's cost.
 */
const each = process.argv.includes('--each');
const question = (i: number) => {
  const named = pick(PEOPLE);
  if (!each) return `What did ${named} say about ${pick(THINGS)}? (${i})`;
  const other =
    PEOPLE[(PEOPLE.indexOf(named) + 1 + Math.floor(random() * (PEOPLE.length - 1))) % PEOPLE.length];
  return `What did ${named} and ${other} each say about ${pick(THINGS)}? (${i})`;
};
const compared = argValue('--compare');
if (compared !== undefined) {
  const [keptHere, keptThere] = [argValue('--keep'), argValue('--compare-keep')];
  if (keptHere === undefined || keptThere === undefined || !existsSync(keptHere) || !existsSync(keptThere))
    throw new Error('--compare TREE needs --keep DIR and --compare-keep DIR2: two copies of one kept folder');
  const { compareRecallLatency } = await import('./support/compare-recall-latency.js');
  await compareRecallLatency({
    trees: [join(import.meta.dirname, '..'), compared],
    dirs: [keptHere, keptThere],
    queries: QUERIES,
    question,
  });
  process.exit(0);
}

const kept = argValue('--keep');
/**
 * `--resume`: a kept folder whose build was cut short (a kill, a stop) goes on from the messages its journal
 * holds, to the same messages a whole build would have saved (a 100,000-chunk build takes an hour and more here).
 */
const resume = process.argv.includes('--resume');
const reuse = kept !== undefined && existsSync(kept) && !resume;
const dir = kept ?? mkdtempSync(join(tmpdir(), 'memory-pool-recall-latency-'));
const checked = configSchema.parse({ bots: { mythos: { selfSpeaker: 'Mythos', collection: 'mem_mythos' } } });
const config: MemoryPoolConfig = {
  ...checked,
  listen: { host: '127.0.0.1', port: 0 },
  store: { kind: 'embedded', path: join(dir, 'qdrant'), host: '127.0.0.1', port: 0 },
  dataDir: join(dir, 'service'),
};
const offline = new OfflineEmbedder();
const hashing = new HashingEmbedder({ dimensions: 512 });
const PHRASES = [...PEOPLE, ...THINGS, ...FEELINGS];
/** The real model's vector of each phrase, embedded once, when storing with the phrase stand-in. */
const phraseVectors = reuse || process.argv.includes('--hashing') ? undefined : await offline.embed(PHRASES);
/** Hashing's share of a stand-in vector: enough that two texts naming the same phrases still differ. */
const HASHING_WEIGHT = 0.3;
async function embedStandIn(texts: readonly string[]): Promise<Float32Array[]> {
  const hashed = await hashing.embed(texts);
  if (phraseVectors === undefined) return hashed;
  return texts.map((text, t) => {
    const vector = hashed[t]!.map((x) => x * HASHING_WEIGHT);
    PHRASES.forEach((phrase, p) => {
      if (!text.includes(phrase)) return;
      const named = phraseVectors[p]!;
      for (let i = 0; i < vector.length; i++) vector[i]! += named[i]!;
    });
    const norm = Math.hypot(...vector) || 1;
    return vector.map((x) => x / norm);
  });
}
// The offline model's name, window and size, so recall (embedding queries with the real model) accepts it.
const standIn: Embedder = {
  model: offline.model,
  dimensions: offline.dimensions,
  inputWindow: offline.inputWindow,
  embed: (texts) => embedStandIn(texts),
  probe: () => offline.probe(),
};
/**
 * `--stages`: each /retrieve's time by stage (the embedding, each store call, the journal's reads, GC), printed
 * as p50 / p95 tables, new and repeated queries apart (support/recall-stage-timer.ts).
 */
const stageTimer = process.argv.includes('--stages') ? startStageTimer() : undefined;
const starting = performance.now();
const service = await startMemoryService({
  config,
  embedder: standIn,
  queryEmbedder: stageTimer ? stageTimer.wrapEmbedder(new CachedEmbedder(offline)) : new CachedEmbedder(offline),
  ...(stageTimer ? { startStore: stageTimer.wrapStartStore(startStoreThread) } : {}),
  logger: createLogger({ level: 'silent' }),
});
/** The start's time: with a kept folder, mostly the store loading its points (and its saved graphs, issue 36). */
const startedIn = (performance.now() - starting) / 1000;
/** Stores about CHUNKS chunks of synthetic chat through /save and waits until they are written. */
async function store(): Promise<void> {
  const day = Date.UTC(2025, 0, 1);
  const journaled = resume ? await countSavedMessages() : 0;
  // The lines already saved are drawn again (and dropped), so the rest are the lines a whole build saves.
  for (let n = 0; n < journaled; n++) line(n);
  if (journaled > 0) console.log(`resuming after ${journaled} messages already in the journal`);
  for (let i = 0, saved = journaled; saved < CHUNKS * MESSAGES_PER_CHUNK && !stopAsked; i++) {
    const messages = Array.from({ length: MESSAGES_PER_SAVE }, (_, j) => {
      const n = saved + j;
      return n % 2 === 0
        ? {
            speaker_kind: 'user',
            text: line(n),
            message_id: `m${n}`,
            user_id: 'u1',
            speaker_name: 'Anna',
            ts: day + n * 60_000,
          }
        : { speaker_kind: 'self', text: line(n), message_id: `m${n}`, ts: day + n * 60_000 };
    });
    await post(`${service.url}/save`, { bot: 'mythos', source: 'bench', messages });
    saved += MESSAGES_PER_SAVE;
    if (i % 20 === 0) await service.writer.runOnce();
  }
  await service.writer.runOnce({ flush: true });
}

/** Messages the journal holds from this benchmark: a whole number of saves, each saved in one commit. */
async function countSavedMessages(): Promise<number> {
  const stats = (await (await fetch(`${service.url}/bots/mythos/stats`)).json()) as {
    messages: { bySource: Record<string, number> };
  };
  return stats.messages.bySource.bench ?? 0;
}

/**
 * SIGINT or SIGTERM while storing: stop after the save in flight and close the service, which saves the store's
 * graphs, so `--resume` goes on later without rebuilding them. Any other time the signal ends the process.
 */
let stopAsked = false;
const stopStoring = () => {
  stopAsked = true;
};
process.once('SIGINT', stopStoring).once('SIGTERM', stopStoring);

try {
  const started = performance.now();
  if (!reuse) await store();
  process.off('SIGINT', stopStoring).off('SIGTERM', stopStoring);
  if (stopAsked) console.log('stopped while storing; --resume goes on from here');
  else await measure(started);
} finally {
  const closing = performance.now();
  await service.close();
  // Closing saves each graph that changed since its last save (graph-persistence.ts).
  console.log(`closed in ${((performance.now() - closing) / 1000).toFixed(1)} s`);
  if (kept === undefined) rmSync(dir, { recursive: true, force: true });
}

/** Prints what was stored, waits for the store's graphs, then asks QUERIES questions twice each. */
async function measure(started: number): Promise<void> {
  const stats = (await (await fetch(`${service.url}/bots/mythos/stats`)).json()) as {
    chunks: { stored: number };
  };
  const took = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    reuse
      ? `reused ${stats.chunks.stored} chunks and their parts from ${dir} (the service started in ${startedIn.toFixed(1)} s)`
      : `stored ${stats.chunks.stored} chunks (default 1200/1500 chars) and their parts in ${took} s ` +
          `(dense vectors from the ${phraseVectors === undefined ? 'hashing' : 'phrase'} stand-in)`,
  );

  if (service.storeUrl !== undefined) {
    const waited = await awaitStoreGraphs(service.storeUrl);
    console.log(`approximate indexes complete after ${waited.toFixed(1)} s (searches are exact until then)`);
  }
  // The first query loads the offline model (and warms the store's caches): not counted.
  await post(`${service.url}/retrieve`, { bot: 'mythos', query_text: 'warm up' }).catch(() => undefined);
  const fresh: number[] = [];
  const repeated: number[] = [];
  const staged: { fresh: StageRecord[]; repeated: StageRecord[] } = { fresh: [], repeated: [] };
  /** Asks once, timed by stage with --stages (the record kept under `kind`). */
  const ask = async (query: object, kind: 'fresh' | 'repeated') => {
    if (stageTimer === undefined) return post(`${service.url}/retrieve`, query);
    const answer = await stageTimer.time(() => post(`${service.url}/retrieve`, query));
    staged[kind].push(stageTimer.records.at(-1)!);
    return answer;
  };
  let hits = 0;
  // The monotonic clock (µs) a --cpu-prof profile's timestamps use, to cut the query phase out of it.
  const phaseStarted = process.hrtime.bigint() / 1000n;
  for (let i = 0; i < QUERIES; i++) {
    const query = { bot: 'mythos', query_text: question(i) };
    const first = await ask(query, 'fresh');
    fresh.push(first.ms);
    hits += (first.json as { hits: unknown[] }).hits.length;
    repeated.push((await ask(query, 'repeated')).ms);
  }
  console.log(`(query phase on the monotonic clock: ${phaseStarted}-${process.hrtime.bigint() / 1000n} µs)`);
  if (stageTimer !== undefined) {
    console.log(`new query, by stage:\n${summarizeStages(staged.fresh).join('\n')}`);
    console.log(`repeated query, by stage:\n${summarizeStages(staged.repeated).join('\n')}`);
  }
  console.log(
    `/retrieve (limit 5, hybrid), new query (embedding + search): ${spread(fresh)}; ` +
      `${(hits / QUERIES).toFixed(1)} hits each`,
  );
  console.log(`/retrieve, repeated query (cached embedding): ${spread(repeated)}`);
  console.log(
    `process RSS ${mb(process.memoryUsage().rss)} (service, embedded store and model in one process); ` +
      `data folder ${mb(sizeOf(dir))}`,
  );
  console.log(
    `(${QUERIES} queries each; load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores: shared machine, noisy)`,
  );
}
