/**
 * @module N `memory-pool serve` replicas as child processes over one journal (a Postgres URL, or each its own
 * SQLite) and one `memory-pool qdrant` store: the topology of docs/scaling-out.md, on one machine, for the
 * replicas end-to-end test and bench/replicas.bench.ts. Each replica can be SIGKILLed and started again.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { type StoreProcess, startStoreProcess } from '../../qdrant-server/contract/store-process.js';
import { findFreePort } from '../../runtime/find-free-port.js';

const CLI = fileURLToPath(new URL('../../cli/main.ts', import.meta.url));
/** Start-up compiles TypeScript through tsx on a shared 2-core machine, beside its siblings: allow a minute. */
const START_TIMEOUT_MS = 60_000;

export interface ReplicaClusterOptions {
  /** Scratch folder: the shared config, the store's data, each replica's dataDir and log. */
  readonly dir: string;
  readonly replicas: number;
  /** The `bots:` section, written once for every replica. */
  readonly bots: Record<string, unknown>;
  /** The `embedding:` section (default: hashing, 64 dimensions: deterministic, offline). */
  readonly embedding?: Record<string, unknown>;
  /** The shared journal (`journal.postgres.url`); absent, each replica keeps SQLite under its own dataDir. */
  readonly postgresUrl?: string;
  /** `journal.claimMs`: how soon a killed replica's chunk claims expire (default: the service's 30 s). */
  readonly claimMs?: number;
}

/** One `memory-pool serve` process; its port and dataDir stay the same across restarts. */
export interface Replica {
  readonly index: number;
  readonly url: string;
  /** Whether the process is running (started, not yet killed or stopped). */
  readonly running: boolean;
  /** The process id of its latest start (part of its holder id in leases and claims). */
  readonly pid: number | undefined;
  /** Starts it (again) and resolves once /health answers. */
  start(): Promise<void>;
  /** SIGKILL: no shutdown code runs, claims and leases are left to expire. */
  kill(): Promise<void>;
  /** SIGTERM: the graceful stop. */
  stop(): Promise<void>;
  /** The end of its log, for a failure message. */
  logTail(): string;
}

export interface ReplicaCluster {
  readonly replicas: readonly Replica[];
  /** The `memory-pool qdrant` process every replica writes to (QDRANT_URL). */
  readonly storeUrl: string;
  /** Stops every replica, then the store. */
  close(): Promise<void>;
}

/** Writes one config, starts the store, then every replica at once; resolves when all answer /health. */
export async function startReplicaCluster(options: ReplicaClusterOptions): Promise<ReplicaCluster> {
  mkdirSync(options.dir, { recursive: true });
  const store = await startStoreProcess(join(options.dir, 'qdrant'));
  const configFile = join(options.dir, 'memory-pool.yaml');
  const journal = {
    ...(options.postgresUrl === undefined ? {} : { postgres: { url: options.postgresUrl } }),
    ...(options.claimMs === undefined ? {} : { claimMs: options.claimMs }),
  };
  // One file for all: what differs per replica (port, dataDir) comes from the environment, as in a container.
  writeFileSync(
    configFile,
    stringify({
      listen: { host: '127.0.0.1' },
      embedding: options.embedding ?? { provider: 'hashing', dimensions: 64 },
      ...(Object.keys(journal).length === 0 ? {} : { journal }),
      bots: options.bots,
    }),
  );
  const replicas: Replica[] = [];
  for (let index = 0; index < options.replicas; index += 1) {
    replicas.push(createReplica(index, await findFreePort(), options.dir, configFile, store.url));
  }
  const cluster = { replicas, storeUrl: store.url, close: () => closeCluster(replicas, store) };
  try {
    await Promise.all(replicas.map((replica) => replica.start()));
  } catch (error) {
    await cluster.close();
    throw error;
  }
  return cluster;
}

async function closeCluster(replicas: readonly Replica[], store: StoreProcess): Promise<void> {
  await Promise.all(replicas.map((replica) => replica.stop()));
  await store.stop();
}

function createReplica(
  index: number,
  port: number,
  dir: string,
  configFile: string,
  storeUrl: string,
): Replica {
  const dataDir = join(dir, `replica-${index}`);
  mkdirSync(dataDir, { recursive: true });
  const logFile = join(dataDir, 'serve.log');
  const url = `http://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  const isRunning = () => child !== undefined && child.exitCode === null && child.signalCode === null;
  const end = async (signal: NodeJS.Signals) => {
    if (child === undefined || !isRunning()) return;
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill(signal);
    await exited;
  };
  const logTail = () => readFileSync(logFile, 'utf8').slice(-3000);
  return {
    index,
    url,
    get running() {
      return isRunning();
    },
    get pid() {
      return child?.pid;
    },
    async start() {
      if (isRunning()) return;
      const log = openSync(logFile, 'a');
      child = spawn(process.execPath, ['--import', 'tsx', CLI, 'serve', '--config', configFile], {
        env: {
          ...process.env,
          LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
          MEMORY_POOL_PORT: String(port),
          MEMORY_POOL_DATA_DIR: dataDir,
          QDRANT_URL: storeUrl,
        },
        stdio: ['ignore', log, log],
      });
      // A test or benchmark that dies without close() must not leave a replica running.
      const killOnExit = () => child?.kill('SIGKILL');
      process.once('exit', killOnExit);
      child.once('exit', () => process.removeListener('exit', killOnExit));
      await waitForHealth(url, child, logTail);
    },
    kill: () => end('SIGKILL'),
    stop: () => end('SIGTERM'),
    logTail,
  };
}

async function waitForHealth(url: string, child: ChildProcess, logTail: () => string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `replica ${url} exited (${child.exitCode ?? child.signalCode}) before answering:\n${logTail()}`,
      );
    }
    try {
      const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(1_000) });
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`replica ${url} did not answer /health within ${START_TIMEOUT_MS} ms:\n${logTail()}`);
}
