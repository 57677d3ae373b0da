// Runs every *.test.ts under src/ and test/ with node's built-in runner (through tsx), because Node 20's
// `node --test` cannot glob TypeScript files itself. Usage: node scripts/run-tests.mjs [path-substring ...]
// One file alone still runs as `node --import tsx --test FILE`.
//
// What keeps `npm test` short on a 2-core machine (docs/development.md has the figures):
// - one Postgres server for the whole run (when a chosen file uses one and Postgres is installed), passed to
//   the files as MEMORY_POOL_TEST_POSTGRES_URL; each file still gets databases of its own, and a file run
//   alone starts its own server as before;
// - two processes at a time (MEMORY_POOL_TEST_CONCURRENCY sets another number): three were tried, and under
//   a heavy load (27 on 2 cores) two recalls then missed their 3 s deadline;
// - small test files share a process (scripts/test-runner/plan-jobs.mjs says which may), so node, tsx and
//   the shared imports start once for several files instead of once per file; MEMORY_POOL_TEST_GROUPS=0
//   runs every file alone;
// - the runner starts the processes itself, slowest first (times of the last run, else a guess from what a
//   file starts), so no long file starts last while the other lane idles; it prints each file's time at the
//   end (MEMORY_POOL_TEST_TIMES=all prints every file's) and the one summary `node --test` prints;
// - a process still running after 15 minutes (MEMORY_POOL_TEST_PROCESS_LIMIT_MS) is stopped and counted as a
//   failure named after its files, so a handle left open after a failure cannot hang the run (or CI).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describeSlowest, planJobs, saveTimes } from './test-runner/plan-jobs.mjs';
import { runJobs } from './test-runner/run-jobs.mjs';

function findTests(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules') return [];
    if (statSync(path).isDirectory()) return findTests(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Starts the run's one Postgres server when a chosen file starts one and Postgres is installed. */
async function startSharedPostgres(files) {
  if (!files.some((file) => readFileSync(file, 'utf8').includes('startPostgres'))) return undefined;
  // The server is the tests' own helper, in TypeScript: tsx loads it here as it loads the tests.
  const { register } = await import('tsx/esm/api');
  register();
  const { SHARED_POSTGRES_VARIABLE, skipWithoutPostgres, startPostgres } = await import(
    '../src/journal/test-support/start-postgres.ts'
  );
  // Not installed: each file skips (or, with MEMORY_POOL_REQUIRE_POSTGRES=1, fails) as it would alone.
  if (skipWithoutPostgres !== false || !existsSync('/usr/lib/postgresql/15/bin/postgres')) return undefined;
  const server = await startPostgres({ dedicated: true });
  return { variable: SHARED_POSTGRES_VARIABLE, server };
}

const filters = process.argv.slice(2);
const files = ['src', 'test']
  .flatMap(findTests)
  .filter((file) => filters.length === 0 || filters.some((f) => file.includes(f)))
  .sort();
if (files.length === 0) {
  console.error('No test files found.');
  process.exit(1);
}
const postgres = await startSharedPostgres(files);
const env = postgres ? { ...process.env, [postgres.variable]: postgres.server.url } : process.env;
const jobs = planJobs(files, { group: process.env.MEMORY_POOL_TEST_GROUPS !== '0' });
const concurrency = Number(process.env.MEMORY_POOL_TEST_CONCURRENCY) || 2;
const shown = process.env.MEMORY_POOL_TEST_TIMES === 'all' ? jobs.length : 10;
const { failed } = await runJobs(jobs, {
  concurrency,
  env,
  beforeSummary: () => describeSlowest(jobs, shown),
});
await postgres?.server.stop();
saveTimes(jobs);
process.exit(failed ? 1 : 0);
