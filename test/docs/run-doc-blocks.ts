/**
 * @module Runs one page's runnable blocks in one bash session, as a user types them: in a scratch folder, with
 * `memory-pool` (and `npx memory-pool`) running this checkout's CLI, and the documented ports (3102, 6333, ...)
 * moved to free ones so a test never meets another process. The recipe's system nginx is one of the scratch
 * folder's own: `/etc/nginx/` is the folder's `nginx/`, and `nginx` / `systemctl reload nginx` run it in the
 * foreground of the shell's process group. Whatever the blocks leave running is stopped after.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { getuid } from 'node:process';
import { join } from 'node:path';
import type { RunnableBlock } from './read-runnable-blocks.js';
import { REPO_ROOT } from './read-markdown.js';

/** How one block ended: its output, and whether it failed. */
export interface BlockOutcome {
  readonly block: RunnableBlock;
  readonly output: string;
  readonly failed: boolean;
}

export interface RunPageOptions {
  /** The scratch folder the blocks run in (the page's `docs/...` paths resolve through a link to the repository's). */
  readonly cwd: string;
  /** Documented port → the port the test uses instead. */
  readonly ports: ReadonlyMap<number, number>;
  readonly env?: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
}

/** The shell prelude: the CLI on PATH, `npx memory-pool` as the same, and `sudo -u USER` as a plain call. */
function writePrelude(cwd: string): string {
  const bin = join(cwd, '.bin');
  mkdirSync(bin, { recursive: true });
  const loader = import.meta.resolve('tsx');
  writeFileSync(
    join(bin, 'memory-pool'),
    `#!/bin/sh\nexec "${process.execPath}" --import ${loader} "${join(REPO_ROOT, 'src/cli/main.ts')}" "$@"\n`,
  );
  chmodSync(join(bin, 'memory-pool'), 0o755);
  writeScratchNginx(cwd);
  return [
    `export PATH="${bin}:$PATH"`,
    'npx() { if [ "$1" = memory-pool ]; then shift; memory-pool "$@"; else command npx "$@"; fi; }',
    // The recipes' `sudo -u postgres createuser ...`: the test's own server takes PGHOST/PGPORT/PGUSER instead.
    'sudo() { if [ "$1" = -u ]; then shift 2; fi; "$@"; }',
    `nginx() { command nginx -p "${join(cwd, 'nginx')}/" -c nginx.conf "$@"; }`,
    // Reload = start here (the scratch nginx is not running yet); it stays in the group the test kills after.
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion, not a template
    'systemctl() { if [ "${2:-}" = nginx ]; then nginx -g "daemon off;" & fi; }',
    'set -euo pipefail',
  ].join('\n');
}

/** The scratch nginx's main config: the recipe's site from `conf.d/`, every path inside the folder. */
function writeScratchNginx(cwd: string): void {
  mkdirSync(join(cwd, 'nginx', 'conf.d'), { recursive: true });
  writeFileSync(
    join(cwd, 'nginx', 'nginx.conf'),
    [
      // As root, nginx's workers would run as nobody, who cannot enter the scratch folder (mode 0700).
      getuid?.() === 0 ? 'user root;' : '',
      'pid nginx.pid;',
      'error_log error.log;',
      'events {}',
      'http { access_log off; client_body_temp_path tmp-body; proxy_temp_path tmp-proxy; include conf.d/*.conf; }',
      '',
    ].join('\n'),
  );
}

/** Replaces each documented port, as a whole number, with the test's. */
function movePorts(code: string, ports: ReadonlyMap<number, number>): string {
  return code.replace(/\b\d{4,5}\b/g, (digits) => String(ports.get(Number(digits)) ?? digits));
}

/** Runs the blocks one after another in one shell; stops at the first that fails, and kills what they started. */
export async function runPageBlocks(blocks: readonly RunnableBlock[], options: RunPageOptions): Promise<BlockOutcome[]> {
  const script = [
    writePrelude(options.cwd),
    // A marker on a line of its own, though the block before may end without a newline (curl's JSON).
    ...blocks.map(
      (block, index) =>
        `printf '\\n::block ${index}\\n'\n${movePorts(block.code, options.ports).replaceAll('/etc/nginx/', `${join(options.cwd, 'nginx')}/`)}`,
    ),
    `printf '\\n::block ${blocks.length}\\n'`,
  ].join('\n');
  const child = spawn('bash', ['-c', script], {
    cwd: options.cwd,
    env: { ...process.env, LOG_LEVEL: 'warn', ...options.env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const timer = setTimeout(() => killGroup(child.pid), options.timeoutMs);
  // The shell's exit ends the page; what it left in the background still holds the pipes until it is killed.
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  await new Promise<void>((resolve) => child.once('exit', () => resolve()));
  clearTimeout(timer);
  killGroup(child.pid);
  await closed;
  const parts = output.split(/\n::block (\d+)\n/);
  return blocks.map((block, index) => {
    const at = parts.indexOf(String(index));
    const reached = parts.includes(String(index + 1));
    return { block, output: at === -1 ? '' : (parts[at + 1] ?? ''), failed: !reached };
  });
}

/** Ends the shell and everything it started in the background (its process group). */
function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
