/**
 * @module Short recall queries with and without 20 kB queries in flight (issues 27 and 37): the real service
 * in-process with the offline embedder (USE-lite), an empty bot (the cost of a query is its embedding).
 * Each round asks short queries one after another alone, then again while `--long-clients` clients each keep
 * a 20 kB query in flight the whole time; phases interleave over `--rounds` rounds so load drifts hit both.
 * Prints each phase's p50/p99 per round, their medians and the ratio (target: p99 within 2x), with the load,
 * the event loop's delay in each phase (how long the service's thread kept a ready callback waiting) and its
 * busy share, and what the short queries' time is made of: waiting for the vector (the model pool's queue and
 * compute) and the rest (store searches, the service's thread), p50 / p99 and for the slowest 1 %.
 * Run: node --import tsx bench/query-fairness.bench.ts [--queries 100] [--long-clients 3] [--rounds 3]
 * Measured (issue 37, three interleaved rounds against the pool before, load 25-30): p99 beside / alone,
 * median 4.25x before, 1.46x after; short p50 beside ~205 → ~40 ms (docs/benchmarks.md). Session 29, main and
 * the branch that bounds a long query's main-thread work alternated, load 16-20: median 7.44x → 4.78x, short
 * p99 beside 618 → 417 ms; the ratio swings 3-8x with the machine's load (docs/benchmarks.md). With the
 * split, --queries 500, load 9-12: median 2.39x here, 2.22x on main (one run to the next: 1.05-2.56x); beside long
 * queries the short query's p50 grows in the wait for its vector, its tails are single queries held 100-730 ms,
 * alone as beside, and the service's thread is no busier (docs/benchmarks.md).
 */
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { seededRandom } from '../src/runtime/seeded-random.js';
import { startBenchService } from './support/in-process-service.js';
import { timeShortQueries } from './support/timed-query-embedder.js';

const { values: args } = parseArgs({
  options: {
    queries: { type: 'string', default: '100' },
    'long-clients': { type: 'string', default: '3' },
    rounds: { type: 'string', default: '3' },
  },
});
const QUERIES = Number(args.queries);
const LONG_CLIENTS = Number(args['long-clients']);
const ROUNDS = Number(args.rounds);
const WORDS =
  'garden rain harbour lantern piano Lisbon sister storm river bakery train forest music winter'.split(' ');

/** The wall time of each short query's embedding call(s), as the service's thread saw them. */
const embedTimes: number[] = [];
const service = await startBenchService(
  { bots: { mythos: { selfSpeaker: 'Mythos', collection: 'mem_mythos' } } },
  (embedder) => timeShortQueries(embedder, embedTimes),
);
const { client } = service;
const random = seededRandom(5);
/** A new query each time, so the query cache never answers. */
let asked = 0;
const shortQuery = () =>
  `${WORDS[Math.floor(random() * WORDS.length)]} ${WORDS[Math.floor(random() * WORDS.length)]} ${asked++}`;
const longQuery = () =>
  `${Array.from({ length: 3_000 }, () => WORDS[Math.floor(random() * WORDS.length)])
    .join(' ')
    .slice(0, 20_000 - 8)} q${asked++}`;

const percentile = (values: readonly number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};
const median = (values: readonly number[]) => percentile(values, 50);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

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

/**
 * How long a callback ready on the service's thread waited for it during a phase (the event loop's delay,
 * p50 / p99 ms), and how busy that thread was: the main thread's share of a short query's wait; the rest is
 * the model pool and the cores.
 */
function watchEventLoop(): () => EventLoopShare {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  const startedUse = performance.eventLoopUtilization();
  histogram.enable();
  return () => {
    histogram.disable();
    // The share of the phase the service's thread was running code: far below 1, it is not what a query waits on.
    const busy = performance.eventLoopUtilization(startedUse).utilization;
    return { p50: histogram.percentile(50) / 1e6, p99: histogram.percentile(99) / 1e6, busy };
  };
}
interface EventLoopShare {
  readonly p50: number;
  readonly p99: number;
  readonly busy: number;
}
const showDelay = ({ p50, p99, busy }: EventLoopShare) =>
  `event loop delay p50 ${p50.toFixed(1)} / p99 ${p99.toFixed(1)} ms, busy ${(busy * 100).toFixed(0)} %`;

/** Each short query's time, and the part of it spent waiting for its vector (queue and compute in the pool). */
interface ShortTimes {
  readonly total: number[];
  readonly embed: number[];
}

async function askShort(phase: string): Promise<ShortTimes> {
  const times: ShortTimes = { total: [], embed: [] };
  for (let i = 0; i < QUERIES; i += 1) {
    const before = embedTimes.length;
    times.total.push(await timedRetrieve(phase, shortQuery()));
    times.embed.push(embedTimes.slice(before).reduce((sum, ms) => sum + ms, 0));
  }
  return times;
}

/** What a phase's short queries' time is made of: embedding p50/p99, the rest p50/p99, and the slowest 1 %. */
function splitLine(times: ShortTimes): string {
  const rest = times.total.map((total, i) => total - (times.embed[i] ?? 0));
  const slowest = times.total
    .map((total, i) => ({ total, embed: times.embed[i] ?? 0 }))
    .sort((a, b) => b.total - a.total)
    .slice(0, Math.max(1, Math.round(times.total.length / 100)));
  const slow = slowest.map(
    (q) => `${q.total.toFixed(1)} = ${q.embed.toFixed(1)} + ${(q.total - q.embed).toFixed(1)}`,
  );
  return (
    `    of which the vector p50 ${percentile(times.embed, 50).toFixed(1)} / p99 ${percentile(times.embed, 99).toFixed(1)} ms, ` +
    `the rest p50 ${percentile(rest, 50).toFixed(1)} / p99 ${percentile(rest, 99).toFixed(1)} ms; ` +
    `slowest 1 % (ms = vector + rest): ${slow.join(', ')}`
  );
}

/** Short queries while LONG_CLIENTS clients each keep one 20 kB query in flight; the long queries' times too. */
async function askBesideLong(): Promise<{ beside: ShortTimes; long: number[] }> {
  let running = true;
  const long: number[] = [];
  const loops = Array.from({ length: LONG_CLIENTS }, async () => {
    while (running) long.push(await timedRetrieve('long', longQuery()));
  });
  const beside = await askShort('beside');
  running = false;
  await Promise.all(loops);
  return { beside, long };
}

const line = (label: string, times: readonly number[]) =>
  `${label}: p50 ${percentile(times, 50).toFixed(1)} ms, p99 ${percentile(times, 99).toFixed(1)} ms`;

try {
  // Loads the model in every worker first: a worker starting mid-phase would charge its load to one query.
  await Promise.all(
    Array.from({ length: 4 }, () => client.retrieve({ bot: 'mythos', query_text: shortQuery() })),
  );
  const ratios: number[] = [];
  const p99s = { alone: [] as number[], beside: [] as number[], long: [] as number[] };
  const p50s = { alone: [] as number[], beside: [] as number[], long: [] as number[] };
  const delays = { alone: [] as number[], beside: [] as number[] };
  for (let round = 1; round <= ROUNDS; round += 1) {
    const stopAlone = watchEventLoop();
    const aloneTimes = await askShort('alone');
    const alone = aloneTimes.total;
    const delayAlone = stopAlone();
    const loadAlone = load();
    const stopBeside = watchEventLoop();
    const { beside: besideTimes, long } = await askBesideLong();
    const beside = besideTimes.total;
    const delayBeside = stopBeside();
    delays.alone.push(delayAlone.p99);
    delays.beside.push(delayBeside.p99);
    const ratio = percentile(beside, 99) / percentile(alone, 99);
    ratios.push(ratio);
    p99s.alone.push(percentile(alone, 99));
    p99s.beside.push(percentile(beside, 99));
    p99s.long.push(percentile(long, 99));
    p50s.alone.push(percentile(alone, 50));
    p50s.beside.push(percentile(beside, 50));
    p50s.long.push(percentile(long, 50));
    console.log(`round ${round}:`);
    console.log(
      `  ${line(`${QUERIES} short queries alone`, alone)}; ${showDelay(delayAlone)} (load ${loadAlone})`,
    );
    console.log(splitLine(aloneTimes));
    console.log(
      `  ${line(`${QUERIES} short queries beside ${LONG_CLIENTS} clients of 20 kB queries`, beside)}; ` +
        `${showDelay(delayBeside)} (load ${load()})`,
    );
    console.log(splitLine(besideTimes));
    console.log(`  ${line(`the ${long.length} 20 kB queries`, long)}`);
    console.log(`  p99 beside / alone: ${ratio.toFixed(2)}x`);
  }
  const both = (label: string, p50: number[], p99: number[]) =>
    `${label} p50 ${median(p50).toFixed(1)} / p99 ${median(p99).toFixed(1)} ms`;
  console.log(
    `median of ${ROUNDS} rounds: ${both('short alone', p50s.alone, p99s.alone)}; ` +
      `${both('beside', p50s.beside, p99s.beside)}; p99 ratio ${median(ratios).toFixed(2)}x; ` +
      `${both('20 kB', p50s.long, p99s.long)} (load ${load()})`,
  );
  console.log(
    `event loop delay p99, median of ${ROUNDS} rounds: alone ${median(delays.alone).toFixed(1)} ms, ` +
      `beside ${median(delays.beside).toFixed(1)} ms`,
  );
  console.log(`failed (503 after the deadline): ${JSON.stringify(Object.fromEntries(failures))}`);
} finally {
  await service.close();
}
