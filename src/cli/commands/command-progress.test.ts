import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { createCommandProgress } from './command-progress.js';

/** A stream that keeps what is written to it, a terminal or not. */
function recordingStream(isTTY: boolean) {
  const written: string[] = [];
  const stream = Object.assign(
    new Writable({
      write(chunk, _encoding, done) {
        written.push(String(chunk));
        done();
      },
    }),
    { isTTY, columns: 80 },
  );
  return { stream, written };
}

const io = (isTTY: boolean) => ({ out: () => undefined, err: () => undefined, isTTY });

async function drive(progress: Awaited<ReturnType<typeof createCommandProgress>>) {
  progress.update(0, 10, 'points');
  progress.update(5, 10, 'points');
  progress.update(1, 3, 'journal');
  progress.stop();
}

test('the progress bar writes nothing when its stream or the output is not a terminal, or with --json', async () => {
  const piped = recordingStream(false);
  await drive(await createCommandProgress(io(true), false, piped.stream));
  assert.deepEqual(piped.written, [], 'stderr redirected to a file');

  const terminal = recordingStream(true);
  await drive(await createCommandProgress(io(false), false, terminal.stream));
  await drive(await createCommandProgress(io(true), true, terminal.stream));
  assert.deepEqual(terminal.written, [], 'output piped, or --json');
});

test('on a terminal it draws the bar', async () => {
  const terminal = recordingStream(true);
  await drive(await createCommandProgress(io(true), false, terminal.stream));
  assert.match(terminal.written.join(''), /points \[.*\] 50% \| 5\/10/);
});
