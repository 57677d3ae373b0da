// The order `npm test` runs its files in: slowest first, so the last minute is not one long file running
// while the other lane idles. A file's time is the last run's (kept in node_modules/.cache, so a fresh clone
// has none) or a guess from what it starts: processes, a browser, a Postgres database, the ONNX model.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const TIMES_FILE = join('node_modules', '.cache', 'memory-pool', 'test-times.json');

/** Seconds a file's source suggests it takes, beyond a second for the process: rough, only for the order. */
const COSTLY = [
  [/startReplicaCluster/, 40],
  [/onnx/i, 15],
  [/launchChromium|viewer-harness|sillytavern-tab/, 8],
  [/spawn\(|execFile|startServeProcess|startStoreProcess|runCli/, 6],
  [/startPostgres/, 3],
];

function guessSeconds(file) {
  const source = readFileSync(file, 'utf8');
  let seconds = 1 + source.length / 4000;
  for (const [pattern, cost] of COSTLY) if (pattern.test(source)) seconds += cost;
  return seconds;
}

function readTimes() {
  try {
    return existsSync(TIMES_FILE) ? JSON.parse(readFileSync(TIMES_FILE, 'utf8')) : {};
  } catch {
    return {}; // A broken cache only costs the order.
  }
}

/** One job (process) per file, slowest first. */
export function planJobs(files) {
  const times = readTimes();
  const jobs = files.map((file) => ({ files: [file], estimate: times[file] ?? guessSeconds(file) }));
  return jobs.sort((a, b) => b.estimate - a.estimate);
}

/** Keeps this run's times for the next run's order (merged: a run of a few files keeps the others'). */
export function saveTimes(jobs) {
  const times = readTimes();
  for (const job of jobs) {
    if (job.seconds === undefined) continue;
    if (job.files.length === 1) times[job.files[0]] = Number(job.seconds.toFixed(2));
  }
  try {
    mkdirSync(dirname(TIMES_FILE), { recursive: true });
    writeFileSync(TIMES_FILE, `${JSON.stringify(times, null, 1)}\n`);
  } catch {
    // Read-only node_modules: the next run guesses again.
  }
}

/** The `count` slowest processes with their wall time, as text for the end of the report. */
export function describeSlowest(jobs, count) {
  const timed = jobs.filter((job) => job.seconds !== undefined).sort((a, b) => b.seconds - a.seconds);
  const total = timed.reduce((sum, job) => sum + job.seconds, 0);
  const lines = timed.slice(0, count).map((job) => {
    const name = job.files.map((file) => relative(process.cwd(), file)).join(' + ');
    return `${job.seconds.toFixed(1).padStart(7)} s  ${name}`;
  });
  const heading = `${timed.length} test processes, ${total.toFixed(0)} s in all; the slowest ${lines.length}:`;
  return `\n${heading}\n${lines.join('\n')}\n\n`;
}
