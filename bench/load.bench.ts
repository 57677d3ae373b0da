/**
 * @module Load benchmark of the whole service as its own process (embedded store, offline embedder):
 * 32 and then 128 concurrent clients, each turn 70 % /retrieve of a new query and 30 % /save of its
 * conversation's re-sent 20-message window, for 30 s each; then the writer drains and every point is audited.
 * Run: node --import tsx bench/load.bench.ts [--seconds 30 --clients 32,128 --workers N]
 * Exits non-zero when an acknowledged message is lost.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { seededRandom } from '../src/runtime/seeded-random.js';
import { auditPoints, printAudit } from './support/audit-points.js';
import { Acknowledged, Conversation, randomQuery } from './support/conversation-windows.js';
import { percentile, type TimedResult, timedPost, waitForDrain } from './support/service-client.js';
import { createServiceProcess } from './support/service-process.js';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '30' },
    clients: { type: 'string', default: '32,128' },
    workers: { type: 'string' },
  },
});
const SECONDS = Number(args.seconds);
const LEVELS = args.clients.split(',').map(Number);
const BOT = 'mythos';
const COLLECTION = 'mem_mythos';

interface Sample extends TimedResult {
  readonly route: 'retrieve' | 'save';
}

const fmt = (ms: number) => `${ms.toFixed(0)} ms`;

function report(clients: number, samples: readonly Sample[], seconds: number): void {
  const errors = samples.filter((s) => s.status < 200 || s.status >= 300).length;
  console.log(
    `${clients} clients: ${(samples.length / seconds).toFixed(1)} requests/s, ${errors} errors of ${samples.length}`,
  );
  for (const route of ['retrieve', 'save'] as const) {
    const ms = samples.filter((s) => s.route === route).map((s) => s.ms);
    console.log(
      `  /${route}: ${ms.length} requests, p50 ${fmt(percentile(ms, 50))}, p99 ${fmt(percentile(ms, 99))}`,
    );
  }
}

const dir = mkdtempSync(join(tmpdir(), 'memory-pool-load-'));
const random = seededRandom(42);
const acknowledged = new Acknowledged();
const embedding: Record<string, unknown> = { provider: 'offline' };
if (args.workers !== undefined) embedding.workers = Number(args.workers);
const service = await createServiceProcess({
  dir,
  embedding,
  bots: { [BOT]: { selfSpeaker: 'Mythos', collection: COLLECTION, chunk: { idleMs: 2_000 } } },
});
let clean = false;
try {
  await service.start();
  console.log(
    `load: ${LEVELS.join(' and ')} clients, ${SECONDS} s each, embedding ${JSON.stringify(embedding)}`,
  );
  const save = async (conversation: Conversation, count: number): Promise<TimedResult> => {
    const body = conversation.nextWindow(count);
    const result = await timedPost(`${service.url}/save`, body);
    if (result.status === 200) acknowledged.add(body);
    return result;
  };
  // Something to recall: 40 conversations of 20 messages, stored before the clock starts.
  const seeded = Array.from({ length: 40 }, (_, i) => new Conversation(BOT, 'seed', `seed-${i}`, random));
  for (const conversation of seeded) await save(conversation, 20);
  await waitForDrain(service.url, [BOT], 120_000);

  for (const clients of LEVELS) {
    const samples: Sample[] = [];
    const deadline = performance.now() + SECONDS * 1000;
    const runClient = async (index: number) => {
      const conversation = new Conversation(BOT, 'discord', `load-${clients}-${index}`, random);
      // Bounded in time (the deadline) and in count (a request never takes less than ~0.1 ms).
      for (let turn = 0; turn < 1_000_000 && performance.now() < deadline; turn++) {
        if (random() < 0.7) {
          const result = await timedPost(`${service.url}/retrieve`, {
            bot: BOT,
            query_text: randomQuery(random),
          });
          samples.push({ ...result, route: 'retrieve' });
        } else {
          samples.push({ ...(await save(conversation, 2)), route: 'save' });
        }
      }
    };
    const started = performance.now();
    await Promise.all(Array.from({ length: clients }, (_, i) => runClient(i)));
    report(clients, samples, (performance.now() - started) / 1000);
  }

  const drainMs = await waitForDrain(service.url, [BOT], 300_000);
  console.log(`drained ${(drainMs / 1000).toFixed(1)} s after the last request`);
  clean = printAudit('afterwards', await auditPoints(service.storeUrl, { [BOT]: COLLECTION }, acknowledged));
} finally {
  await service.stop();
  rmSync(dir, { recursive: true, force: true });
}
process.exitCode = clean ? 0 : 1;
