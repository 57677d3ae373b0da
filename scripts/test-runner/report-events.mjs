// The reporter each test process of `npm test` writes through (scripts/run-tests.mjs passes it with
// --test-reporter): one JSON line per event, errors turned into the text node's spec reporter would print,
// so the runner can print every file's report as `node --test` does and add the counts up across processes.
import { inspect } from 'node:util';

/** Events the runner's spec output does not use; dropped to keep the files small. */
const UNUSED = new Set(['test:enqueue', 'test:dequeue', 'test:complete', 'test:watch:drained']);

/** A value as JSON can carry it: itself when it survives the trip, else as inspect prints it. */
function toData(value) {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? inspect(value) : JSON.parse(text);
  } catch {
    return inspect(value);
  }
}

/** The fields node's spec and TAP reporters print of an error (an assertion's actual, expected, operator). */
function describeCause(cause) {
  if (!(cause instanceof Error)) return { value: toData(cause), printed: inspect(cause) };
  const { message, name, stack, code, actual, expected, operator } = /** @type {any} */ (cause);
  const assertion =
    operator === undefined ? {} : { actual: toData(actual), expected: toData(expected), operator };
  return { message, name, stack, code, ...assertion, printed: inspect(cause, { breakLength: Infinity }) };
}

/** A failure as data: the test failure's own fields and its cause, restored by count-tests.mjs. */
function describeError(error) {
  if (!(error instanceof Error)) return { cause: describeCause(error) };
  const failure = /** @type {any} */ (error);
  if (failure.code !== 'ERR_TEST_FAILURE') return { cause: describeCause(error) };
  const { message, code, failureType, exitCode, signal } = failure;
  return { message, code, failureType, exitCode, signal, cause: describeCause(failure.cause) };
}

export default async function* reportEvents(source) {
  for await (const event of source) {
    if (UNUSED.has(event.type)) continue;
    const error = event.data?.details?.error;
    const data =
      error === undefined
        ? event.data
        : { ...event.data, details: { ...event.data.details, error: describeError(error) } };
    yield `${JSON.stringify({ type: event.type, data })}\n`;
  }
}
