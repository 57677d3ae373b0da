/**
 * @module The cost of one /save alone (issue 27): remote-import.bench.ts's shape (a window of the last 10
 * messages, 2 new per call, through MemoryPoolClient over real HTTP to an in-process service) with the chunk
 * writer stopped, so neither it nor the embedded store shares the event loop: what is left is the client, the
 * HTTP server, the service's own code, the journal's commit and its fdatasync. Prints per round the calls'
 * p50 and mean and the main thread's CPU per call (client and service both: they share the thread, as in
 * remote-import.bench.ts). Compare two trees by running this file from each (copy it beside the other's src).
 * Run: node --import tsx bench/save-cost.bench.ts [--messages 2000 --rounds 3]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { MemoryPoolClient } from '../src/client/memory-pool-client.js';
import { configSchema } from '../src/config/config-schema.js';
import type { MemoryPoolConfig } from '../src/config/config-types.js';
import { HashingEmbedder } from '../src/embedding/hashing/hashing-embedder.js';
import { createLogger } from '../src/logging/logger.js';
import { startMemoryService } from '../src/service/start-memory-service.js';
import { readMainThreadCpu } from './support/main-thread-cpu.js';

const { values: args } = parseArgs({
  options: { messages: { type: 'string', default: '2000' }, rounds: { type: 'string', default: '3' } },
});
const MESSAGES = Number(args.messages);
const WORDS = 'lighthouse harbour lantern piano Lisbon sister storm regatta river bakery train forest'.split(
  ' ',
);
const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

const dir = mkdtempSync(join(tmpdir(), 'memory-pool-save-cost-'));
const config: MemoryPoolConfig = {
  ...configSchema.parse({ bots: { mythos: { selfSpeaker: 'Mythos', collection: 'mem_mythos' } } }),
  listen: { host: '127.0.0.1', port: 0 },
  store: { kind: 'embedded', path: join(dir, 'qdrant'), host: '127.0.0.1', port: 0 },
  dataDir: join(dir, 'service'),
};
const service = await startMemoryService({
  config,
  embedder: new HashingEmbedder({ dimensions: 64 }),
  logger: createLogger({ level: 'silent' }),
});
// Stopped: its passes and the store's writes would land between the calls (remote-import.bench.ts has them).
await service.writer.stop();
const client = new MemoryPoolClient({ baseUrl: service.url, timeoutMs: 60_000 });
const cpuPerCall: number[] = [];
const p50s: number[] = [];
try {
  for (let round = 0; round < Number(args.rounds); round += 1) {
    const body = Array.from({ length: MESSAGES }, (_, i) => ({
      speaker_kind: i % 2 === 0 ? ('user' as const) : ('self' as const),
      ...(i % 2 === 0 ? { speaker_name: 'Helen', user_id: 'bench:helen' } : {}),
      text: `${Array.from({ length: 8 + ((i * 7) % 20) }, (_, j) => WORDS[(i + j * 3) % WORDS.length]).join(' ')}.`,
      message_id: `r${round}-m${i}`,
      ts: Date.UTC(2024, 2, 1) + i * 60_000 + round * 86_400_000,
    }));
    const latencies: number[] = [];
    const cpuBefore = readMainThreadCpu();
    const started = performance.now();
    for (let end = 2; end <= body.length; end += 2) {
      const sent = performance.now();
      await client.save({ bot: 'mythos', source: 'bench', messages: body.slice(Math.max(0, end - 10), end) });
      latencies.push(performance.now() - sent);
    }
    const elapsed = performance.now() - started;
    const cpuAfter = readMainThreadCpu();
    const cpu = cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore;
    if (cpu !== undefined) cpuPerCall.push((cpu * 1000) / latencies.length);
    p50s.push(median(latencies));
    console.log(
      `round ${round + 1}: ${latencies.length} /save calls, p50 ${median(latencies).toFixed(2)} ms, mean ` +
        `${(elapsed / latencies.length).toFixed(2)} ms, main thread CPU ` +
        `${cpu === undefined ? 'n/a' : `${((cpu * 1000) / latencies.length).toFixed(2)} ms`} per call (load ${loadavg()[0]!.toFixed(1)})`,
    );
  }
  console.log(
    `median of ${args.rounds}: /save p50 ${median(p50s).toFixed(2)} ms` +
      (cpuPerCall.length === 0 ? '' : `, main thread CPU ${median(cpuPerCall).toFixed(2)} ms per call`) +
      ` (load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')})`,
  );
} finally {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
}
