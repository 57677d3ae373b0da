/**
 * @module Child processes a benchmark starts (the service, a store), killed however the benchmark ends:
 * normal exit, a thrown error, Ctrl-C. Each is started from this checkout's CLI through tsx.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { openSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
const live = new Set<ChildProcess>();

// SIGKILL, synchronously, on every way out: a benchmark must never leave a service running.
const killAll = () => {
  for (const child of live) child.kill('SIGKILL');
};
process.on('exit', killAll);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    killAll();
    process.exit(130);
  });
}

/**
 * Runs `memory-pool <args>` with output appended to `logFile`; the process is tracked until it exits. `cli`:
 * another tree's `src/cli/main.ts` (a copy of main, for a side-by-side run); default this checkout's.
 */
export function spawnCli(
  args: readonly string[],
  logFile: string,
  env: NodeJS.ProcessEnv = {},
  cli = CLI,
): ChildProcess {
  const log = openSync(logFile, 'a');
  const child = spawn(process.execPath, ['--import', 'tsx', cli, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', log, log],
  });
  live.add(child);
  child.once('exit', () => live.delete(child));
  return child;
}

/** Sends `signal` and waits (at most 10 s, then SIGKILL) for the process to be gone. */
export async function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** Polls `url` until it answers 2xx; throws after `timeoutMs` or when `child` dies first. */
export async function waitForHttp(url: string, child: ChildProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `the process for ${url} exited (${child.exitCode ?? child.signalCode}) before answering`,
      );
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1_000) });
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}
