// Adds up the tests of every process of `npm test` and prints the one summary `node --test` prints (the lines
// CI reads: "ℹ tests N", "ℹ pass N", "ℹ fail N", ...). A process that ends badly without a failing test (it
// crashed while loading, or was killed) counts as one failed test named after its files, as under `node --test`.
import { relative } from 'node:path';
import { inspect } from 'node:util';

const COUNTS = ['tests', 'suites', 'pass', 'fail', 'cancelled', 'skipped', 'todo'];
const SUMMARY = new RegExp(`^(${COUNTS.join('|')}|duration_ms) (\\d+(\\.\\d+)?)$`);

export function createTotals() {
  return { tests: 0, suites: 0, pass: 0, fail: 0, cancelled: 0, skipped: 0, todo: 0, crashed: 0 };
}

/** A cause described by report-events.mjs: an Error with its fields, printed by spec as the child printed it. */
function restoreCause(described) {
  if (!('printed' in described) || !('message' in described)) {
    return described.value ?? { [inspect.custom]: () => described.printed };
  }
  const { printed, ...fields } = described;
  const cause = Object.assign(new Error(fields.message), fields);
  Object.defineProperty(cause, inspect.custom, { value: () => printed });
  return cause;
}

/** A failure described by report-events.mjs, as node's reporters expect it (ERR_TEST_FAILURE with a cause). */
function restoreError(described) {
  if (described.code !== 'ERR_TEST_FAILURE') return restoreCause(described.cause);
  const { cause, ...fields } = described;
  const error = Object.assign(new Error(fields.message), fields, { cause: restoreCause(cause) });
  error.stack = undefined; // the runner's own stack says nothing: the reporters show the cause's
  return error;
}

/** The process's summary lines (kept apart: the runner prints one summary) and its events, errors restored. */
export function countEvents(events, job, code, signal, seconds) {
  const counts = Object.fromEntries(COUNTS.map((name) => [name, 0]));
  const shown = [];
  const fileSeconds = {};
  let summarised = false;
  for (const event of events) {
    const { data } = event;
    const isRoot = data.file === undefined && data.nesting === 0;
    const summary = isRoot && event.type === 'test:diagnostic' ? SUMMARY.exec(data.message) : null;
    if (summary) {
      if (summary[1] !== 'duration_ms') counts[summary[1]] += Number(summary[2]);
      summarised = true;
      continue;
    }
    if (isRoot && event.type === 'test:plan') continue;
    if ((event.type === 'test:pass' || event.type === 'test:fail') && data.nesting === 0 && data.file) {
      fileSeconds[data.file] = (fileSeconds[data.file] ?? 0) + (data.details?.duration_ms ?? 0) / 1000;
    }
    const error = data.details?.error;
    shown.push(
      error === undefined
        ? event
        : { ...event, data: { ...data, details: { ...data.details, error: restoreError(error) } } },
    );
  }
  const ended = code === 0 || (summarised && counts.fail > 0);
  if (ended) return { events: shown, counts, crashed: 0, fileSeconds };
  // Exited badly with no failing test to show for it: say so as a failed test, as `node --test` does.
  const name = job.files.map((file) => relative(process.cwd(), file)).join(', ');
  const cause = signal ? `killed by ${signal}` : `exited with code ${code}`;
  const error = restoreError({
    message: 'test failed',
    code: 'ERR_TEST_FAILURE',
    failureType: 'testCodeFailure',
    exitCode: code,
    signal,
    cause: { value: `test process ${cause}` },
  });
  const failed = {
    type: 'test:fail',
    data: {
      name,
      nesting: 0,
      file: job.files[0],
      line: 1,
      column: 1,
      testNumber: 0,
      details: { duration_ms: seconds * 1000, error },
    },
  };
  return { events: [...shown, failed], counts, crashed: 1, fileSeconds };
}

export function addSummary(totals, { counts, crashed }) {
  for (const name of COUNTS) totals[name] += counts[name];
  totals.tests += crashed;
  totals.fail += crashed;
  totals.crashed += crashed;
}

/** The closing lines, written as the root's diagnostics so node's spec reporter prints them as it always has. */
export function printTotals(out, totals, durationMs) {
  const lines = [...COUNTS.map((name) => `${name} ${totals[name]}`), `duration_ms ${durationMs}`];
  for (const message of lines) out.write({ type: 'test:diagnostic', data: { nesting: 0, message } });
}
