/**
 * @module `memory-pool serve` as a child process with a YAML config written for the benchmark, so the load
 * generator and the service do not share an event loop, and the service can be killed with SIGKILL.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { findFreePort } from '../../src/runtime/find-free-port.js';
import { spawnCli, stopChild, waitForHttp } from './child-processes.js';

export interface ServiceProcessOptions {
  /** Folder for the config, the journal, the embedded store's data and the log. */
  readonly dir: string;
  /** The `bots:` section. */
  readonly bots: Record<string, unknown>;
  /** The `embedding:` section (default: offline). */
  readonly embedding?: Record<string, unknown>;
  /** A Qdrant URL to use instead of the embedded store, passed as QDRANT_URL as an operator would. */
  readonly qdrantUrl?: string;
  /** Another tree to serve from (its `src/cli/main.ts`, e.g. a copy of main); default this checkout. */
  readonly tree?: string;
}

export interface ServiceProcess {
  readonly url: string;
  /** The Qdrant REST URL holding the points (the embedded store's, or `qdrantUrl`). */
  readonly storeUrl: string;
  readonly logFile: string;
  /** The running service's process id (for its RSS), undefined before `start()`. */
  readonly pid: number | undefined;
  /** Starts the service (again, on the same ports and data) and waits until it answers /health. */
  start(): Promise<void>;
  /** Kills the running service with SIGKILL: no shutdown code runs. */
  kill(): Promise<void>;
  /** Stops it with SIGTERM (graceful). */
  stop(): Promise<void>;
}

/** Writes the config and returns a handle; call `start()`. */
export async function createServiceProcess(options: ServiceProcessOptions): Promise<ServiceProcess> {
  mkdirSync(options.dir, { recursive: true });
  const port = await findFreePort();
  const storePort = await findFreePort();
  const configFile = join(options.dir, 'memory-pool.yaml');
  const logFile = join(options.dir, 'service.log');
  const store = { embedded: { path: join(options.dir, 'qdrant'), host: '127.0.0.1', port: storePort } };
  const env: NodeJS.ProcessEnv = { LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' };
  if (options.qdrantUrl !== undefined) env.QDRANT_URL = options.qdrantUrl;
  writeFileSync(
    configFile,
    stringify({
      listen: { host: '127.0.0.1', port },
      store,
      embedding: options.embedding ?? { provider: 'offline' },
      dataDir: join(options.dir, 'service'),
      bots: options.bots,
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  return {
    url,
    storeUrl: options.qdrantUrl ?? `http://127.0.0.1:${storePort}`,
    logFile,
    get pid() {
      return child?.pid;
    },
    async start() {
      const cli = options.tree === undefined ? undefined : join(options.tree, 'src', 'cli', 'main.ts');
      child = spawnCli(['serve', '--config', configFile], logFile, env, cli);
      // A kept 10,000-chunk folder loads in ~1 min on a quiet machine; on a loaded shared one, longer.
      await waitForHttp(`${url}/health`, child, 300_000);
    },
    async kill() {
      if (child) await stopChild(child, 'SIGKILL');
    },
    async stop() {
      if (child) await stopChild(child, 'SIGTERM');
    },
  };
}
