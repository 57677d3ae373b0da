/**
 * @module How long a key removed from the config file keeps working: two serve replicas (in one process, each
 * following the file under its own path, at the default 1 s poll) and an edit landing anywhere in the poll
 * cycle; the time from the write until both answer 401, and what one reload (read + validate) costs.
 * Run: node --import tsx bench/key-reload.bench.ts [--rounds 9]
 */
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config/load-config.js';
import { HashingEmbedder } from '../src/embedding/hashing/hashing-embedder.js';
import { createLogger } from '../src/logging/logger.js';
import { startMemoryService } from '../src/service/start-memory-service.js';
import { startTestQdrant } from '../src/service/test-support/start-test-qdrant.js';

const { values: args } = parseArgs({ options: { rounds: { type: 'string', default: '9' } } });
const ROUNDS = Number(args.rounds);
const dir = mkdtempSync(join(tmpdir(), 'memory-pool-key-reload-'));
const file = join(dir, 'memory-pool.yaml');
const qdrant = await startTestQdrant();
const secret = (round: number) => `bench-key-${round}-0123456789abcdef`;
const write = (round: number) =>
  writeFileSync(
    file,
    `store: { qdrant: { url: ${qdrant.url} } }\nembedding: { provider: hashing, dimensions: 64 }\n` +
      `bots: { mythos: { selfSpeaker: Mythos } }\napiKeys:\n  - { name: k${round}, key: ${secret(round)}, bots: '*' }\n`,
  );
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

write(0);
const replicas = [];
for (const name of ['a', 'b']) {
  // fs.watchFile polls a path once per process, so each replica follows the file under its own name.
  const path = join(dir, `${name}.yaml`);
  symlinkSync(file, path);
  const load = () => ({
    ...loadConfig({ configPath: path }),
    dataDir: join(dir, name),
    listen: { host: '127.0.0.1', port: 0 },
  });
  replicas.push(
    await startMemoryService({
      config: load(),
      embedder: new HashingEmbedder({ dimensions: 64 }),
      logger: createLogger({ level: 'silent' }),
      configFile: { path, load },
    }),
  );
}
const status = async (url: string, key: string) =>
  (await fetch(`${url}/whoami`, { headers: { authorization: `Bearer ${key}` } })).status;

const revoked: number[] = [];
for (let round = 1; round <= ROUNDS; round++) {
  await new Promise((resolve) => setTimeout(resolve, 200 + Math.random() * 1000));
  const started = performance.now();
  write(round);
  for (const replica of replicas) {
    while ((await status(replica.url, secret(round - 1))) !== 401)
      await new Promise((r) => setTimeout(r, 10));
  }
  revoked.push(performance.now() - started);
}
const reloads: number[] = [];
for (let i = 0; i < 50; i++) {
  const started = performance.now();
  loadConfig({ configPath: file });
  reloads.push(performance.now() - started);
}
console.log(
  `load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
console.log(
  `write to 401 on both replicas, ${ROUNDS} rounds: median ${median(revoked).toFixed(0)} ms, max ${Math.max(...revoked).toFixed(0)} ms`,
);
console.log(`one reload's read + validate, 50 runs: median ${median(reloads).toFixed(2)} ms`);
for (const replica of replicas) await replica.close();
await qdrant.close();
rmSync(dir, { recursive: true, force: true });
