// Runs the test processes of `npm test` a few at a time and prints their reports as `node --test` does: each
// process's report once it ends (through node's own spec reporter), then one summary over every process.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { addSummary, countEvents, createTotals, printTotals } from './count-tests.mjs';
import { createReporter } from './create-reporter.mjs';

const REPORTER = fileURLToPath(new URL('./report-events.mjs', import.meta.url));
/**
 * A test process still running after this long is stopped and counted as failed, named after its files: a file
 * that leaves a handle open after a failure (a pool, a server) would otherwise keep `npm test`, and CI, waiting
 * until CI's own limit. The slowest file takes under a minute on 2 loaded cores.
 */
const PROCESS_LIMIT_MS = Number(process.env.MEMORY_POOL_TEST_PROCESS_LIMIT_MS ?? 15 * 60_000);
const GROUP = fileURLToPath(new URL('./run-group.mjs', import.meta.url));

/**
 * Runs `jobs` (each { files: string[] }: one file, or several sharing one process) `concurrency` at a time,
 * in the order given; sets each job's `seconds` (wall time) and `fileSeconds` (each file's tests). Prints
 * beforeSummary()'s text just before the closing summary. Resolves with { failed }.
 */
export async function runJobs(jobs, { concurrency, env, beforeSummary }) {
  const scratch = mkdtempSync(join(tmpdir(), 'memory-pool-tests-'));
  const out = createReporter();
  const totals = createTotals();
  const started = performance.now();
  const children = new Set();
  let stopped = false;
  // Ctrl-C (or a kill): the running processes are stopped, no new one starts, and the run fails.
  const stop = (signal) => {
    stopped = true;
    for (const child of children) child.kill(signal);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  let next = 0;
  const lane = async () => {
    while (next < jobs.length && !stopped) {
      const job = jobs[next];
      const events = join(scratch, `${next}.jsonl`);
      next += 1;
      const result = await runJob(job, events, env, children);
      job.seconds = result.seconds;
      job.fileSeconds = result.fileSeconds;
      for (const event of [...result.printed, ...result.events]) out.write(event);
      addSummary(totals, result);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, jobs.length) }, lane));
  out.write({ type: 'test:stdout', data: { message: beforeSummary() } });
  await out.end(() => printTotals(out, totals, performance.now() - started));
  rmSync(scratch, { recursive: true, force: true });
  return { failed: stopped || totals.fail > 0 || totals.crashed > 0 };
}

/** One process: `node --import tsx` on the file (or the group runner on several), its events to a file. */
function runJob(job, eventsFile, env, children) {
  const entry = job.files.length === 1 ? job.files : [GROUP, ...job.files];
  const args = [
    '--import',
    'tsx',
    `--test-reporter=${REPORTER}`,
    `--test-reporter-destination=${eventsFile}`,
  ];
  // Under `node --test` (a test of this runner) the variable would make the child report to it instead.
  const { NODE_TEST_CONTEXT: _, ...childEnv } = env;
  const child = spawn(process.execPath, [...args, ...entry], {
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  const output = [];
  child.stdout.on('data', (chunk) => output.push({ type: 'test:stdout', text: chunk }));
  child.stderr.on('data', (chunk) => output.push({ type: 'test:stderr', text: chunk }));
  const began = performance.now();
  const limit = setTimeout(() => {
    const message = `stopped after ${Math.round(PROCESS_LIMIT_MS / 1000)} s, still running (a handle left open?): ${job.files.join(' + ')}\n`;
    output.push({ type: 'test:stderr', text: message });
    child.kill('SIGKILL');
  }, PROCESS_LIMIT_MS);
  return new Promise((resolve) => {
    child.once('close', (code, signal) => {
      clearTimeout(limit);
      children.delete(child);
      const seconds = (performance.now() - began) / 1000;
      const printed = output.map(({ type, text }) => ({
        type,
        data: { message: String(text), file: job.files[0] },
      }));
      resolve({ ...countEvents(readEvents(eventsFile), job, code, signal, seconds), printed, seconds });
    });
  });
}

function readEvents(file) {
  try {
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line.length > 0)
      .map((line) => JSON.parse(line));
  } catch {
    return []; // The process died before its reporter wrote anything: countEvents reports it as failed.
  }
}
