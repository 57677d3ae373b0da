/** @module Test support: `memory-pool serve` as a child process (run through tsx), for tests that kill or stop it. */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../cli/main.ts', import.meta.url));

/** Starts `memory-pool serve` as a child process and resolves once it logs that it listens. */
export function startServeProcess(configPath: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'serve', '--config', configPath], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LOG_LEVEL: 'info' },
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (data: Buffer) => {
      output += data.toString();
      if (output.includes('memory-pool listening')) resolve(child);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${output}`)));
  });
}
