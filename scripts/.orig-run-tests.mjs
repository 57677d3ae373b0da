// Runs every *.test.ts under src/ and test/ with node's built-in runner (through tsx), because Node 20's
// `node --test` cannot glob TypeScript files itself. Usage: node scripts/run-tests.mjs [path-substring ...]
//
// What keeps `npm test` short on a 2-core machine:
// - one Postgres server for the whole run (when a chosen file uses one and Postgres is installed), passed to
//   the files as MEMORY_POOL_TEST_POSTGRES_URL; each file still gets databases of its own, and a file run
//   alone (`node --import tsx --test FILE`) starts its own server as before;
// - two files at a time (MEMORY_POOL_TEST_CONCURRENCY sets another number): three were tried, and under a
//   heavy load (27 on 2 cores) two recalls then missed their 3 s deadline.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

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

function runNodeTest(files, env) {
  const concurrency = Number(process.env.MEMORY_POOL_TEST_CONCURRENCY) || 2;
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, ...files],
    { stdio: 'inherit', env },
  );
  // Ctrl-C reaches the runner and the tests alike (one process group): wait for them, then stop the server.
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
}

const filters = process.argv.slice(2);
const files = ['src', 'test']
  .flatMap(findTests)
  .filter((file) => filters.length === 0 || filters.some((f) => file.includes(f)))
  .sort(); // Node 20's runner sorts them too; this keeps the order the same on every version
if (files.length === 0) {
  console.error('No test files found.');
  process.exit(1);
}
const postgres = await startSharedPostgres(files);
const env = postgres ? { ...process.env, [postgres.variable]: postgres.server.url } : process.env;
const status = await runNodeTest(files, env);
await postgres?.server.stop();
process.exit(status);
