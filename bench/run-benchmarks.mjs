/** @module `npm run bench`: the sparse and the dense store benchmarks in turn, each given the same flags (e.g. --quick). */
import { spawnSync } from 'node:child_process';

const flags = process.argv.slice(2);
for (const bench of ['bench/sparse-search.bench.ts', 'bench/store-search.bench.ts']) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', bench, ...flags], { stdio: 'inherit' });
  if (run.status !== 0) process.exit(run.status ?? 1);
}
