/**
 * @module The rename pass of issue 33: a bot with N stored chunks (half of them from one Discord account), that
 * account linked to a person, and the time until every one of its chunks is rewritten under the person's name,
 * with /retrieve's p50 before and during the pass (in-process: SQLite journal, the in-memory store, the hashing
 * embedder, so it measures memory-pool's own work). Run: `node --import tsx bench/people.bench.ts [--chunks N]
 * [--recall]`.
 */
import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { testBot } from '../src/config/test-support/test-bot.js';
import { createFakeServiceDeps } from '../src/http/test-support/fake-service-deps.js';

const at = process.argv.indexOf('--chunks');
const CHUNKS = at < 0 ? 10_000 : Number(process.argv[at + 1]);
/** With --recall, /retrieve runs beside the pass (the in-memory store searches by brute force: slow past 1,000s). */
const RECALL = process.argv.includes('--recall');
const DAY = Date.UTC(2026, 10, 2, 9);
const load = () => loadavg()[0]!.toFixed(2);

const fake = await createFakeServiceDeps({ bots: [testBot('mythos')] });
const request = async (path: string, body: unknown, method = 'POST') => {
  const response = await fake.app.request(path, {
    method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status >= 300) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response.json();
};
const drain = async () => {
  for (;;) {
    await fake.writer.runOnce({ flush: true });
    if ((await fake.journal.queueDepth()).plannedChunks === 0) return;
  }
};

// Each conversation (channel) is one chunk of two messages; every other one is the account linked below.
for (let first = 0; first < CHUNKS; first += 200) {
  const messages = Array.from({ length: Math.min(200, CHUNKS - first) }, (_, k) => {
    const i = first + k;
    const who =
      i % 2 === 0
        ? { discord_user_id: '1234', speaker_name: 'anna_d' }
        : { discord_user_id: '99', speaker_name: 'Bob' };
    return [0, 1].map((n) => ({
      message_id: `m${i}-${n}`,
      speaker_kind: n === 0 ? 'user' : 'self',
      text: `conversation ${i}: the lighthouse at the end of pier ${i % 97} was painted ${n === 0 ? 'red' : 'white'}`,
      ts: DAY + i * 10,
      channel_id: `c${i}`,
      ...(n === 0 ? who : {}),
    }));
  }).flat();
  await request('/save', { bot: 'mythos', source: 'discord', messages });
}
let started = performance.now();
await drain();
console.log(
  `stored ${(await fake.journal.queueDepth()).storedChunks} chunks in ${((performance.now() - started) / 1000).toFixed(1)} s (load ${load()})`,
);

/** /retrieve latencies while `running()` holds. */
async function recallWhile(running: () => boolean): Promise<number[]> {
  const times: number[] = [];
  while (running()) {
    const t0 = performance.now();
    await request('/retrieve', {
      bot: 'mythos',
      query_text: `which colour was the lighthouse at pier ${times.length % 97}`,
    });
    times.push(performance.now() - t0);
    await sleep(5);
  }
  return times;
}
const p50 = (times: number[]) => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)] ?? Number.NaN;

if (RECALL) {
  let baselineDone = false;
  const baseline = recallWhile(() => !baselineDone);
  await sleep(3000);
  baselineDone = true;
  const before = await baseline;
  console.log(`/retrieve p50 before: ${p50(before).toFixed(1)} ms over ${before.length} (load ${load()})`);
}

// When the pass itself had queued every chunk: its one transaction resolved (builds with durable rename rows;
// a watcher asking the journal would wait behind the writer's batches, so the journal call is timed instead).
const renames = (fake.journal as { renames?: { queueRewrites: (...args: never[]) => Promise<number> } })
  .renames;
let queuedAfter: number | undefined;
if (renames !== undefined) {
  const queue = renames.queueRewrites.bind(renames);
  renames.queueRewrites = async (...args) => {
    const queued = await queue(...args);
    queuedAfter = (performance.now() - started) / 1000;
    return queued;
  };
}
const countRenamed = () =>
  fake.store.heldPoints('mem_mythos').filter((p) => String(p.payload.text).includes('\nAnna: ')).length;
started = performance.now();
await request('/bots/mythos/people', { name: 'Anna', accounts: [{ discord_user_id: '1234' }] });
let passDone = false;
const during = RECALL ? recallWhile(() => !passDone) : Promise.resolve([]);
const expected = Math.ceil(CHUNKS / 2);
while (countRenamed() < expected) {
  await fake.writer.runOnce({ flush: true });
  await sleep(10);
}
const wall = (performance.now() - started) / 1000;
passDone = true;
const duringTimes = await during;
console.log(
  `rename pass: ${expected} of ${CHUNKS} chunks rewritten in ${wall.toFixed(1)} s after the link (1.1 s of it the cache wait) (load ${load()})`,
);
if (queuedAfter !== undefined)
  console.log(
    `the pass had queued them ${queuedAfter.toFixed(1)} s after the link (the rest is the chunk writer)`,
  );
if (RECALL) {
  console.log(
    `/retrieve p50 during the pass: ${p50(duringTimes).toFixed(1)} ms over ${duringTimes.length} (load ${load()})`,
  );
}
await fake.close();
