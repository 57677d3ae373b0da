/**
 * @module /save + /retrieve throughput and p99 through 1, 2 and 3 `memory-pool serve` replicas over one
 * Postgres journal (fsync on), and one replica on its SQLite journal: the price of the shared journal (issue
 * 24). Every arm: its own `memory-pool qdrant` store, an OpenAI-compatible stand-in answering in --delay-ms
 * (so the service's own cost is what is measured, not a model's), --clients clients each alternating a /save
 * of its re-sent window (+2 messages) and a /retrieve of a new query, round-robin over the arm's replicas, for
 * --seconds; then the writers drain and every point is audited (lost, doubled). Rounds rotate the arms' order;
 * medians are printed with the load average.
 * Run: node --import tsx bench/replicas.bench.ts [--arms sqlite-1,postgres-1,postgres-2,postgres-3
 *      --seconds 20 --clients 16 --rounds 3 --delay-ms 50 --dimensions 1536]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type TestPostgres, startPostgres } from '../src/journal/test-support/start-postgres.js';
import { seededRandom } from '../src/runtime/seeded-random.js';
import { startReplicaCluster } from '../src/service/test-support/replica-cluster.js';
import { auditPoints } from './support/audit-points.js';
import { Acknowledged, Conversation, randomQuery } from './support/conversation-windows.js';
import { startEmbedderStandIn } from './support/embedder-stand-in.js';
import { percentile, timedPost, waitForDrain } from './support/service-client.js';

const { values: args } = parseArgs({
  options: {
    arms: { type: 'string', default: 'sqlite-1,postgres-1,postgres-2,postgres-3' },
    seconds: { type: 'string', default: '20' },
    clients: { type: 'string', default: '16' },
    rounds: { type: 'string', default: '3' },
    'delay-ms': { type: 'string', default: '50' },
    dimensions: { type: 'string', default: '1536' },
  },
});
const ARMS = args.arms.split(',').map(parseArm);
const SECONDS = Number(args.seconds);
const CLIENTS = Number(args.clients);
const BOT = 'mythos';
const COLLECTION = 'mem_mythos';

interface Arm {
  readonly name: string;
  readonly journal: 'sqlite' | 'postgres';
  readonly replicas: number;
}

/** One arm's run: requests per second (both routes), p50/p99 per route in ms, the drain and the audit. */
interface Figures {
  readonly perSecond: number;
  readonly save: { p50: number; p99: number };
  readonly retrieve: { p50: number; p99: number };
  readonly errors: number;
  readonly drainS: number;
  readonly lost: number;
  readonly doubled: number;
}

function parseArm(text: string): Arm {
  const match = /^(sqlite|postgres)-([1-9])$/.exec(text);
  if (match === null || (match[1] === 'sqlite' && match[2] !== '1')) {
    throw new Error(`--arms: "${text}" is not sqlite-1 or postgres-N (N from 1 to 9)`);
  }
  return { name: text, journal: match[1] as Arm['journal'], replicas: Number(match[2]) };
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

async function runArm(
  arm: Arm,
  round: number,
  postgres: TestPostgres | undefined,
  baseUrl: string,
): Promise<Figures> {
  const dir = mkdtempSync(join(tmpdir(), `memory-pool-replicas-bench-${arm.name}-`));
  const postgresUrl =
    arm.journal === 'postgres'
      ? await postgres!.createDatabase(`bench_${arm.name.replace('-', '_')}_${round}`)
      : undefined;
  const cluster = await startReplicaCluster({
    dir,
    replicas: arm.replicas,
    ...(postgresUrl === undefined ? {} : { postgresUrl }),
    embedding: {
      provider: 'openai-compatible',
      baseUrl,
      model: 'stand-in',
      dimensions: Number(args.dimensions),
    },
    bots: { [BOT]: { selfSpeaker: 'Mythos', collection: COLLECTION, chunk: { idleMs: 2_000 } } },
  });
  try {
    const random = seededRandom(24 + round);
    const acknowledged = new Acknowledged();
    let next = 0;
    const urlOfNext = () => cluster.replicas[next++ % arm.replicas]!.url;
    // Something to recall: 20 conversations of 20 messages, stored before the clock starts.
    for (let i = 0; i < 20; i += 1) {
      const body = new Conversation(BOT, 'seed', `seed-${i}`, random).nextWindow(20);
      if ((await timedPost(`${urlOfNext()}/save`, body)).status === 200) acknowledged.add(body);
    }
    await waitForDrain(cluster.replicas[0]!.url, [BOT], 120_000);

    const samples: { route: 'save' | 'retrieve'; ms: number; status: number }[] = [];
    const deadline = performance.now() + SECONDS * 1000;
    const runClient = async (index: number) => {
      const conversation = new Conversation(BOT, 'discord', `client-${index}`, random);
      while (performance.now() < deadline) {
        const body = conversation.nextWindow(2);
        const saved = await timedPost(`${urlOfNext()}/save`, body);
        if (saved.status === 200) acknowledged.add(body);
        samples.push({ route: 'save', ...saved });
        const query = { bot: BOT, query_text: randomQuery(random) };
        samples.push({ route: 'retrieve', ...(await timedPost(`${urlOfNext()}/retrieve`, query)) });
      }
    };
    const started = performance.now();
    await Promise.all(Array.from({ length: CLIENTS }, (_, i) => runClient(i)));
    const elapsedS = (performance.now() - started) / 1000;
    const drainMs = await waitForDrain(cluster.replicas[0]!.url, [BOT], 300_000);
    const audit = await auditPoints(cluster.storeUrl, { [BOT]: COLLECTION }, acknowledged);
    const ms = (route: 'save' | 'retrieve') => samples.filter((s) => s.route === route).map((s) => s.ms);
    return {
      perSecond: samples.length / elapsedS,
      save: { p50: percentile(ms('save'), 50), p99: percentile(ms('save'), 99) },
      retrieve: { p50: percentile(ms('retrieve'), 50), p99: percentile(ms('retrieve'), 99) },
      errors: samples.filter((s) => s.status !== 200).length,
      drainS: drainMs / 1000,
      lost: audit.lost.length,
      doubled: audit.doubled.length,
    };
  } finally {
    await cluster.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const row = (name: string, f: Figures) =>
  `${name.padEnd(11)} ${f.perSecond.toFixed(1).padStart(7)} req/s   /save p50 ${f.save.p50.toFixed(0)} ms p99 ${f.save.p99.toFixed(0)} ms   ` +
  `/retrieve p50 ${f.retrieve.p50.toFixed(0)} ms p99 ${f.retrieve.p99.toFixed(0)} ms   errors ${f.errors}   ` +
  `drain ${f.drainS.toFixed(1)} s   lost ${f.lost} doubled ${f.doubled}`;

const standIn = await startEmbedderStandIn(Number(args['delay-ms']), Number(args.dimensions));
const postgres = ARMS.some((arm) => arm.journal === 'postgres')
  ? await startPostgres({ durable: true })
  : undefined;
const results = new Map<string, Figures[]>(ARMS.map((arm) => [arm.name, []]));
let clean = true;
console.log(
  `replicas: ${CLIENTS} clients, ${SECONDS} s an arm, stand-in embedder ${args['delay-ms']} ms, ${args.dimensions}-d; ` +
    `command: node --import tsx bench/replicas.bench.ts ${process.argv.slice(2).join(' ')}`,
);
try {
  for (let round = 0; round < Number(args.rounds); round += 1) {
    // Rotated, so no arm always runs first (or last, on a machine warmed by the others).
    const order = ARMS.map((_, i) => ARMS[(i + round) % ARMS.length]!);
    for (const arm of order) {
      const figures = await runArm(arm, round, postgres, standIn.baseUrl);
      results.get(arm.name)!.push(figures);
      if (figures.lost > 0 || figures.doubled > 0) clean = false;
      console.log(`round ${round + 1}: ${row(arm.name, figures)} (load ${load()})`);
    }
  }
  console.log(`median of ${args.rounds} rounds (load average ${load()}):`);
  for (const [name, runs] of results) {
    const pick = (get: (f: Figures) => number) => median(runs.map(get));
    const figures: Figures = {
      perSecond: pick((f) => f.perSecond),
      save: { p50: pick((f) => f.save.p50), p99: pick((f) => f.save.p99) },
      retrieve: { p50: pick((f) => f.retrieve.p50), p99: pick((f) => f.retrieve.p99) },
      errors: pick((f) => f.errors),
      drainS: pick((f) => f.drainS),
      lost: Math.max(...runs.map((f) => f.lost)),
      doubled: Math.max(...runs.map((f) => f.doubled)),
    };
    console.log(`  ${row(name, figures)}`);
  }
} finally {
  await postgres?.stop();
  await standIn.close();
}
process.exitCode = clean ? 0 : 1;
