/** @module Runs the embedded store as the CLI does, in a child process that a test can SIGKILL and restart. */
import { type ChildProcess, spawn } from 'node:child_process';
import { findFreePort } from '../../runtime/find-free-port.js';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** A running `memory-pool qdrant` child. */
export interface StoreProcess {
  readonly url: string;
  readonly child: ChildProcess;
  /** Sends SIGKILL (kill -9) and resolves once the process is gone. */
  kill(): Promise<void>;
  /** Sends SIGTERM and resolves once the process is gone. */
  stop(): Promise<void>;
}

/** Starts `node --import tsx src/cli/main.ts qdrant --data DIR --port P` and waits until /healthz answers. */
export async function startStoreProcess(dataDir: string): Promise<StoreProcess> {
  const port = await findFreePort();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/cli/main.ts', 'qdrant', '--data', dataDir, '--port', String(port)],
    { cwd: repoRoot, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  // Start-up compiles TypeScript on a shared 2-core machine: allow it up to 60 s.
  for (let attempt = 0; attempt < 600; attempt++) {
    if (child.exitCode !== null)
      throw new Error(`the store exited with ${child.exitCode} before answering: ${stderr}`);
    try {
      const reply = await fetch(`${url}/healthz`);
      if (reply.ok) return { url, child, kill: () => end('SIGKILL'), stop: () => end('SIGTERM') };
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await end('SIGKILL');
  throw new Error(`the store did not answer /healthz on ${url}: ${stderr}`);
}
