/**
 * @module Runs a benchmark file again in a child process and reads the JSON line it prints last: side-by-side
 * comparisons give each tree (this branch, a copy of main) a fresh process with its own model pool.
 */
import { spawn } from 'node:child_process';

/** Runs `node --import tsx file ...args`; resolves with its last stdout line parsed as JSON. */
export function runChildBench(file: string, args: readonly string[]): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', file, ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      const last = out.trim().split('\n').at(-1) ?? '';
      if (code !== 0) reject(new Error(`${file} ${args.join(' ')} exited ${code}: ${out}`));
      else {
        try {
          resolve(JSON.parse(last));
        } catch (error) {
          reject(new Error(`${file} printed no JSON line: ${out}`, { cause: error }));
        }
      }
    });
  });
}
