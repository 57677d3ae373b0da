// How `npm test` runs its files. Most are small unit files whose process spends more time starting (node, tsx,
// the shared imports) than testing: those run several to a process, in path order so neighbours share their
// imports. A file stays alone when it starts something costly (processes, a browser, Postgres, the ONNX
// model), has hooks at its top level (they would apply to every file in the process) or changes
// process-wide state. MEMORY_POOL_TEST_GROUPS=0 runs every file alone, as `node --test` does.
// Processes run slowest first, so the last minute is not one long file running while the other lane idles:
// a file's time is this checkout's last run's (node_modules/.cache), the committed test-times.json's (a full
// run's, for a fresh clone as in CI), or a guess from what the file starts.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const TIMES_FILE = join('node_modules', '.cache', 'memory-pool', 'test-times.json');
const COMMITTED_TIMES_FILE = fileURLToPath(new URL('./test-times.json', import.meta.url));

/** Seconds a file's source suggests it takes, beyond a second for the process: rough, only for the order. */
const COSTLY = [
  [/startReplicaCluster/, 40],
  [/onnx/i, 15],
  [/launchChromium|viewer-harness|sillytavern-tab/, 8],
  [/spawn\(|execFile|startServeProcess|startStoreProcess|runCli/, 6],
  [/startPostgres/, 3],
];

/** What keeps a file in a process of its own even when it is cheap. */
const ALONE = [
  /^(before|after|beforeEach|afterEach)\(/m,
  /process\.(on|once|exit|chdir|exitCode)\b|process\.(stdout|stderr)\.write\s*=|delete process\.env/,
  /process\.env(\.\w+|\[[^\]]+\])\s*=[^=]|globalThis\.\w+\s*=[^=]|Date\.now\s*=[^=]|console\.\w+\s*=[^=]/,
  /setGlobalDispatcher|import \{[^}]*\bmock\b[^}]*\} from 'node:test'/,
  // A file's own say: it needs a fresh process (e.g. it counts what a module has cached since loading).
  /^\/\/ npm test: alone\b/m,
];
/** A group's estimated seconds at most: enough to share the start-up, small enough to keep lanes even. */
const GROUP_SECONDS = 30;

function guessSeconds(file, source) {
  // test/ holds the end-to-end tests: whole services, the Hermes plugin, the docs' shell blocks.
  let seconds = 1 + source.length / 4000 + (file.startsWith('test') ? 10 : 0);
  for (const [pattern, cost] of COSTLY) if (pattern.test(source)) seconds += cost;
  // Each service, harness or store a test starts in-process (startTestService(...), startDiscordHarness(...)).
  seconds += Math.min(source.match(/\bstart[A-Z]\w*\(/g)?.length ?? 0, 10) * 1.5;
  return seconds;
}

/**
 * Each file's seconds: this checkout's last runs (node_modules/.cache), else the times committed beside this
 * file from a full run on a 2-core machine (so a fresh clone, as in CI, orders and groups as well), else none.
 */
function readTimes() {
  return { ...readJson(COMMITTED_TIMES_FILE), ...readJson(TIMES_FILE) };
}

function readJson(file) {
  try {
    return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  } catch {
    return {}; // A broken file only costs the order.
  }
}

/** The processes to run, slowest first: { files, estimate } each. */
export function planJobs(files, { group = true } = {}) {
  const times = readTimes();
  const jobs = [];
  let open;
  for (const file of files) {
    const source = readFileSync(file, 'utf8');
    const estimate = times[file] ?? guessSeconds(file, source);
    const alone =
      !group || COSTLY.some(([pattern]) => pattern.test(source)) || ALONE.some((p) => p.test(source));
    if (alone) {
      jobs.push({ files: [file], estimate });
      continue;
    }
    if (open === undefined || open.estimate + estimate > GROUP_SECONDS) {
      open = { files: [], estimate: 0 };
      jobs.push(open);
    }
    open.files.push(file);
    open.estimate += estimate;
  }
  return jobs.sort((a, b) => b.estimate - a.estimate);
}

/** Keeps this run's times for the next run's order (merged: a run of a few files keeps the others'). */
export function saveTimes(jobs) {
  const times = readJson(TIMES_FILE);
  for (const job of jobs) {
    if (job.seconds === undefined) continue;
    // A file in a group: its tests' time, plus its share of the process's start-up and imports.
    // (The events name each file by its absolute path.)
    const testedIn = (file) => job.fileSeconds?.[resolve(file)] ?? 0;
    const tested = job.files.reduce((sum, file) => sum + testedIn(file), 0);
    const share = Math.max(0, job.seconds - tested) / job.files.length;
    for (const file of job.files) {
      const seconds = job.files.length === 1 ? job.seconds : testedIn(file) + share;
      times[file] = Number(seconds.toFixed(2));
    }
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
