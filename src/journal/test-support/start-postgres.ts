/** @module A throwaway Postgres server for tests: Debian's postgresql 15 in a temp dir on a free port, torn down after. */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { chmod, chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { findFreePort } from '../../runtime/find-free-port.js';
import { readEnv } from '../../runtime/read-env.js';

const BIN = '/usr/lib/postgresql/15/bin';
/** Debian's `nobody`: Postgres refuses to run as root, and CI runs as root. */
const NOBODY = 65_534;

/**
 * A test's `skip` option: true (skip) only outside CI when Postgres is not installed.
 * MEMORY_POOL_REQUIRE_POSTGRES=1, which .ci/run sets, makes a missing Postgres a failure instead.
 */
export const skipWithoutPostgres =
  !existsSync(join(BIN, 'postgres')) && readEnv(process.env, 'MEMORY_POOL_REQUIRE_POSTGRES') !== '1'
    ? 'Postgres 15 is not installed (apt-get install postgresql)'
    : false;

/** A running server; `createDatabase` gives each suite its own database. */
export interface TestPostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  readonly url: string;
  /** Creates an empty database and returns its URL. */
  createDatabase(name: string): Promise<string>;
  stop(): Promise<void>;
}

export interface StartPostgresOptions {
  /** Default false: fsync off, as a test's throwaway data needs; a benchmark comparing durability sets true. */
  readonly durable?: boolean;
  /** A server of its own even when the run shares one: for a test that stops (or breaks) the server. */
  readonly dedicated?: boolean;
}

/**
 * Where scripts/run-tests.mjs passes the one server it started for the whole run: an initdb and a start per
 * test file cost seconds each on a 2-core machine. A file run alone (no variable) starts its own.
 */
export const SHARED_POSTGRES_VARIABLE = 'MEMORY_POOL_TEST_POSTGRES_URL';

/**
 * The run's shared server when there is one (and the caller needs neither durability nor a server of its
 * own), else a new one: initdb, then postgres on loopback, as `nobody` when running as root.
 */
export async function startPostgres(options: StartPostgresOptions = {}): Promise<TestPostgres> {
  const shared = readEnv(process.env, SHARED_POSTGRES_VARIABLE);
  if (shared !== undefined && options.durable !== true && options.dedicated !== true) {
    return useSharedPostgres(shared);
  }
  const dir = await mkdtemp(join(tmpdir(), 'memory-pool-pg-'));
  const asRoot = process.getuid?.() === 0;
  // The data dir must belong to the user the server runs as, and the parent must let it in.
  if (asRoot) {
    await chmod(dir, 0o755);
    await chown(dir, NOBODY, NOBODY);
  }
  const user = asRoot ? { uid: NOBODY, gid: NOBODY } : {};
  const env = { ...process.env, LC_ALL: 'C', LANG: 'C', HOME: dir };
  const data = join(dir, 'data');
  await promisify(execFile)(
    join(BIN, 'initdb'),
    ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8'],
    { ...user, env },
  );
  const port = await findFreePort();
  // fsync off: a test server's data is thrown away, and fsyncs would only slow the shared machine.
  const fsync = options.durable === true ? 'on' : 'off';
  const server = spawn(
    join(BIN, 'postgres'),
    [
      '-D',
      data,
      '-p',
      String(port),
      '-k',
      dir,
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      `fsync=${fsync}`,
      // A server shared by a whole test run serves several files (each with pools, replicas) at once.
      '-c',
      'max_connections=300',
    ],
    { ...user, env, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  // A test run that ends without stop() (a failed before(), a crash) still takes its server down with it.
  const stopOnExit = () => {
    server.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', stopOnExit);
  server.once('exit', () => process.removeListener('exit', stopOnExit));
  let log = '';
  server.stderr?.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-4000);
  });
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  try {
    await waitUntilAccepting(url, server, () => log);
  } catch (error) {
    await stopServer(server, dir);
    throw error;
  }
  return { url, createDatabase: (name) => createDatabase(url, name), stop: () => stopServer(server, dir) };
}

let sharedDatabases = 0;

/**
 * The run's server, shared by test files running at once: each database name gets this process's id and a
 * counter, so two files asking for `journal` get two databases; stop() leaves the server to the runner.
 */
function useSharedPostgres(url: string): TestPostgres {
  return {
    url,
    createDatabase: (name) => createDatabase(url, `${name}_${process.pid}_${++sharedDatabases}`),
    stop: async () => {},
  };
}

async function createDatabase(url: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name.replace(/"/g, '')}"`);
  } finally {
    await client.end();
  }
  return url.replace(/\/postgres$/, `/${name}`);
}

async function waitUntilAccepting(url: string, server: ChildProcess, log: () => string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if (server.exitCode !== null) throw new Error(`postgres exited (${server.exitCode}): ${log()}`);
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      return;
    } catch {
      await client.end().catch(() => {});
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  throw new Error(`postgres did not accept connections within 10 s: ${log()}`);
}

/** SIGINT is Postgres's "fast shutdown": clients are disconnected, nothing waits. */
async function stopServer(server: ChildProcess, dir: string): Promise<void> {
  if (server.exitCode === null && server.signalCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGINT');
    await exited;
  }
  await rm(dir, { recursive: true, force: true });
}
