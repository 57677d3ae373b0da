/**
 * @module Benchmark of the memory service's hot paths through real HTTP: /save acknowledgement, and /retrieve
 * with a fresh query (embedding included) and a repeated one (cached), with the offline USE-lite embedder.
 * Run: node --import tsx bench/service-latency.bench.ts [--points N]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CachedEmbedder } from '../src/embedding/cached-embedder.js';
import { OfflineEmbedder } from '../src/embedding/offline/offline-embedder.js';
import { createLogger } from '../src/logging/logger.js';
import { testBot } from '../src/config/test-support/test-bot.js';
import { startMemoryService } from '../src/service/start-memory-service.js';
import { benchConfig } from './support/bench-config.js';

const pointsArg = process.argv.indexOf('--points');
const CHUNKS = pointsArg > 0 ? Number(process.argv[pointsArg + 1]) : 2000;
const TOPICS = [
  'cats',
  'the sea',
  'piano lessons',
  'a trip to Lisbon',
  'gardening',
  'chess',
  'baking bread',
  'rain',
];

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

async function post(url: string, body: unknown): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await response.text();
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return performance.now() - started;
}

const dir = mkdtempSync(join(tmpdir(), 'memory-pool-bench-'));
const embedder = new OfflineEmbedder();
const service = await startMemoryService({
  config: benchConfig(dir, testBot('mythos', { chunk: { minChars: 100, maxChars: 300, idleMs: 60_000 } })),
  embedder,
  queryEmbedder: new CachedEmbedder(embedder),
  logger: createLogger({ level: 'silent' }),
});
try {
  const saveTimes: number[] = [];
  const loadStarted = performance.now();
  for (let i = 0; i < CHUNKS; i++) {
    const topic = TOPICS[i % TOPICS.length];
    saveTimes.push(
      await post(`${service.url}/save`, {
        bot: 'mythos',
        source: 'bench',
        messages: [
          {
            speaker_kind: 'user',
            text: `Message ${i}: let me tell you more about ${topic} and what happened on day ${i}.`,
            message_id: `u${i}`,
            channel_id: `c${i % 20}`,
          },
          {
            speaker_kind: 'self',
            text: `That is a lovely story about ${topic}; tell me what happened next, number ${i}.`,
            message_id: `s${i}`,
            channel_id: `c${i % 20}`,
          },
        ],
      }),
    );
  }
  await service.writer.runOnce({ flush: true });
  const loadSeconds = (performance.now() - loadStarted) / 1000;
  console.log(
    `stored ${CHUNKS} save calls (2 messages each) into chunks in ${loadSeconds.toFixed(1)} s (embedding included)`,
  );
  console.log(
    `/save acknowledgement: p50 ${fmt(percentile(saveTimes, 50))}, p99 ${fmt(percentile(saveTimes, 99))}`,
  );

  const fresh: number[] = [];
  const cached: number[] = [];
  for (let i = 0; i < 100; i++) {
    const query = {
      bot: 'mythos',
      query_text: `what do you remember about ${TOPICS[i % TOPICS.length]}, question ${i}?`,
    };
    fresh.push(await post(`${service.url}/retrieve`, query));
    cached.push(await post(`${service.url}/retrieve`, query));
  }
  console.log(
    `/retrieve, new query (embedding + search): p50 ${fmt(percentile(fresh, 50))}, p99 ${fmt(percentile(fresh, 99))}`,
  );
  console.log(
    `/retrieve, repeated query (cached embedding): p50 ${fmt(percentile(cached, 50))}, p99 ${fmt(percentile(cached, 99))}`,
  );
  console.log(
    `ratio new/repeated p50: ${(percentile(fresh, 50) / percentile(cached, 50)).toFixed(1)}x; client budget 3500 ms`,
  );

  // A backlog of long chunks being embedded (e.g. after an outage) must not starve recall on the same thread.
  await service.writer.stop(); // let the backlog pile up, as while the store was down
  const long = 'and then we talked for a long while about everything that happened that week. '.repeat(16);
  for (let i = 0; i < 64; i++) {
    await post(`${service.url}/save`, {
      bot: 'mythos',
      source: 'bench',
      messages: [
        {
          speaker_kind: 'user',
          text: `Backlog ${i}: ${long}`,
          message_id: `b${i}`,
          channel_id: `backlog${i}`,
        },
      ],
    });
  }
  let done = false;
  const backlog = service.writer.runOnce({ flush: true }).then(() => {
    done = true;
  });
  const during: number[] = [];
  for (let i = 0; !done && i < 200; i++) {
    during.push(
      await post(`${service.url}/retrieve`, { bot: 'mythos', query_text: `backlog question ${i}` }),
    );
  }
  await backlog;
  console.log(
    `/retrieve while 64 long chunks are embedded: p50 ${fmt(percentile(during, 50))}, p99 ${fmt(percentile(during, 99))}, max ${fmt(Math.max(...during))} (${during.length} requests)`,
  );
} finally {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
}
