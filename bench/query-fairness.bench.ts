/**
 * @module Short recall queries with and without a 20 kB query in flight (issue 27): the real service
 * in-process with the offline embedder (USE-lite), an empty bot (the cost of a query is its embedding).
 * Phase 1 asks short queries one after another alone; phase 2 asks them again while a client keeps a 20 kB
 * query in flight the whole time. Prints each phase's p50/p99 and their ratio (target: p99 within 2x).
 * Run: node --import tsx bench/query-fairness.bench.ts [--queries 100]
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { seededRandom } from '../src/runtime/seeded-random.js';
import { startBenchService } from './support/in-process-service.js';

const { values: args } = parseArgs({ options: { queries: { type: 'string', default: '100' } } });
const QUERIES = Number(args.queries);
const WORDS =
  'garden rain harbour lantern piano Lisbon sister storm river bakery train forest music winter'.split(' ');

const service = await startBenchService({
  bots: { mythos: { selfSpeaker: 'Mythos', collection: 'mem_mythos' } },
});
const { client } = service;
const random = seededRandom(5);
/** A new query each time, so the query cache never answers. */
const shortQuery = (i: number) =>
  `${WORDS[Math.floor(random() * WORDS.length)]} ${WORDS[Math.floor(random() * WORDS.length)]} ${i}`;
const longQuery = (i: number) =>
  `${Array.from({ length: 3_000 }, () => WORDS[Math.floor(random() * WORDS.length)])
    .join(' ')
    .slice(0, 20_000 - 8)} q${i}`;

const percentile = (values: readonly number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

/** Failed recalls (a 503 `recall_timeout` after the 3 s deadline) by phase: their time counts too. */
const failures = new Map<string, number>();
async function timedRetrieve(phase: string, query: string): Promise<number> {
  const started = performance.now();
  try {
    await client.retrieve({ bot: 'mythos', query_text: query });
  } catch {
    failures.set(phase, (failures.get(phase) ?? 0) + 1);
  }
  return performance.now() - started;
}

async function askShort(phase: string, offset: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < QUERIES; i += 1) times.push(await timedRetrieve(phase, shortQuery(offset + i)));
  return times;
}

try {
  // Loads the model in every worker first: a worker starting mid-phase would charge its load to one query.
  await Promise.all(
    Array.from({ length: 4 }, (_, i) => client.retrieve({ bot: 'mythos', query_text: `warm up ${i}` })),
  );
  const alone = await askShort('alone', 0);
  let running = true;
  let longAnswered = 0;
  const longTimes: number[] = [];
  const longLoop = (async () => {
    while (running) {
      longTimes.push(await timedRetrieve('long', longQuery(longAnswered)));
      longAnswered += 1;
    }
  })();
  const beside = await askShort('beside', QUERIES);
  running = false;
  await longLoop;
  const line = (label: string, times: number[]) =>
    `${label}: p50 ${percentile(times, 50).toFixed(1)} ms, p99 ${percentile(times, 99).toFixed(1)} ms`;
  console.log(line(`${QUERIES} short queries alone`, alone));
  console.log(line(`${QUERIES} short queries with a 20 kB query in flight`, beside));
  console.log(line(`the ${longTimes.length} 20 kB queries`, longTimes));
  console.log(`failed (503 after the deadline): ${JSON.stringify(Object.fromEntries(failures))}`);
  console.log(
    `p99 with / alone: ${(percentile(beside, 99) / percentile(alone, 99)).toFixed(2)}x ` +
      `(load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')})`,
  );
} finally {
  await service.close();
}
