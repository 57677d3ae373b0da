// The reporter `node --test` would use for the whole run: spec on a terminal, TAP when the output is piped
// (as in CI). Test numbers restart in each process, so the top-level ones are numbered again across the run,
// and the TAP plan (1..N) closes it.
import { PassThrough, Readable } from 'node:stream';
import { spec, tap } from 'node:test/reporters';

/** { write(event), end(): Promise<void> } over node's own reporter, printing to stdout. */
export function createReporter() {
  let topLevel = 0;
  const input = new PassThrough({ objectMode: true });
  const output = process.stdout.isTTY ? input.pipe(new spec()) : Readable.from(tap(input));
  output.pipe(process.stdout, { end: false });
  const ended = new Promise((resolve) => output.once('end', resolve));
  return {
    write(event) {
      const { data } = event;
      const numbered = (event.type === 'test:pass' || event.type === 'test:fail') && data.nesting === 0;
      if (numbered) topLevel += 1;
      input.write(numbered ? { ...event, data: { ...data, testNumber: topLevel } } : event);
    },
    /** Ends the run: the plan, then `writeSummary()`'s closing lines (node prints them in this order). */
    end(writeSummary) {
      input.write({ type: 'test:plan', data: { nesting: 0, count: topLevel } });
      writeSummary();
      input.end();
      return ended;
    },
  };
}
