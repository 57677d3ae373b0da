/**
 * @module Benchmark of /save while the chunk writer works: 10 conversations re-send their last 20 messages,
 * 2 new ones a turn, 2,000 messages in all, through real HTTP to an in-process service (the writer shares
 * the event loop, as in `memory-pool serve`) with the offline embedder and the bench bot's small chunks.
 * Prints /save p50/p99 during the burst, per round and the median over rounds. `--embedder hashing` makes
 * the writer keep pace with the burst, so all of its bookkeeping commits land during it (the worst case for
 * them); `--workers` pins the offline pool.
 * Run: node --import tsx bench/save-burst.bench.ts [--messages 2000 --rounds 3 --embedder offline|hashing --workers N]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { CachedEmbedder } from '../src/embedding/cached-embedder.js';
import { HashingEmbedder } from '../src/embedding/hashing/hashing-embedder.js';
import { OfflineEmbedder } from '../src/embedding/offline/offline-embedder.js';
import { createLogger } from '../src/logging/logger.js';
import { testBot } from '../src/config/test-support/test-bot.js';
import { startMemoryService } from '../src/service/start-memory-service.js';
import { seededRandom } from '../src/runtime/seeded-random.js';
import { Conversation } from './support/conversation-windows.js';
import { percentile, timedPost } from './support/service-client.js';
import { benchConfig } from './support/bench-config.js';

const { values: args } = parseArgs({
  options: {
    messages: { type: 'string', default: '2000' },
    rounds: { type: 'string', default: '3' },
    embedder: { type: 'string', default: 'offline' },
    workers: { type: 'string' },
  },
});
const MESSAGES = Number(args.messages);
const ROUNDS = Number(args.rounds);
const CONVERSATIONS = 10;
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

/** One burst on a fresh service; returns /save latencies. */
async function runBurst(round: number): Promise<{ p50: number; p99: number; max: number; seconds: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'memory-pool-burst-'));
  const embedder =
    args.embedder === 'hashing'
      ? new HashingEmbedder({ dimensions: 512 })
      : new OfflineEmbedder(args.workers === undefined ? {} : { workers: Number(args.workers) });
  const service = await startMemoryService({
    config: benchConfig(dir, testBot('mythos', { chunk: { minChars: 100, maxChars: 300, idleMs: 60_000 } })),
    embedder,
    queryEmbedder: new CachedEmbedder(embedder),
    logger: createLogger({ level: 'silent' }),
  });
  try {
    await embedder.probe(); // the model load is not part of the burst
    const random = seededRandom(round);
    const times: number[] = [];
    const started = performance.now();
    const turns = Math.ceil(MESSAGES / CONVERSATIONS / 2);
    const conversations = Array.from(
      { length: CONVERSATIONS },
      (_, c) => new Conversation('mythos', 'bench', `burst-${c}`, random),
    );
    // One client taking turns over the conversations, so a slow /save shows what blocked the event loop
    // (the writer's work), not a queue of other clients' saves.
    for (let turn = 0; turn < turns; turn++) {
      for (const conversation of conversations) {
        const result = await timedPost(`${service.url}/save`, conversation.nextWindow(2));
        if (result.status !== 200) throw new Error(`/save: HTTP ${result.status}`);
        times.push(result.ms);
      }
    }
    const seconds = (performance.now() - started) / 1000;
    return { p50: percentile(times, 50), p99: percentile(times, 99), max: Math.max(...times), seconds };
  } finally {
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(
  `burst: ${MESSAGES} messages, ${CONVERSATIONS} conversations, one client, embedder ${args.embedder} ${args.workers ?? ''}`,
);
const runs = [];
for (let round = 1; round <= ROUNDS; round++) {
  const run = await runBurst(round);
  runs.push(run);
  console.log(
    `round ${round}: ${MESSAGES} messages in ${run.seconds.toFixed(1)} s, /save p50 ${fmt(run.p50)}, p99 ${fmt(run.p99)}, max ${fmt(run.max)}`,
  );
}
console.log(
  `/save during the burst, median of ${ROUNDS} rounds: p50 ${fmt(
    percentile(
      runs.map((r) => r.p50),
      50,
    ),
  )}, p99 ${fmt(
    percentile(
      runs.map((r) => r.p99),
      50,
    ),
  )}`,
);
