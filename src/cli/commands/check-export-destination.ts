/**
 * @module Where `memory-pool export --out` will write, checked before anything is read: a folder that is
 * missing or not writable, or a path that is a folder, is refused in one line naming the path and the fix,
 * rather than as a stream's stack trace or a rename's EISDIR after the whole export.
 */
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { CommandFailure } from './command-io.js';

/** Resolves when `out` (and its `.partial` beside it) can be written; throws CommandFailure otherwise. */
export async function checkExportDestination(out: string, bot: string): Promise<void> {
  const refuse = (why: string, fix: string) => new CommandFailure(`error: --out ${out}: ${why}. ${fix}`);
  const example = `${bot}.jsonl.gz`;
  if (out === '') throw refuse('is empty', `Give a file name, e.g. --out ${example}.`);
  // Not stdout: leaving out --out is how the snapshot goes to stdout; a file named `-` is never meant.
  if (out === '-') {
    throw refuse(
      'is not a file name',
      `Leave out --out to write the snapshot to stdout, or give a file name, e.g. --out ${example}.`,
    );
  }
  // resolve() drops a trailing slash: `newdir/` would otherwise pass as a file named newdir.
  if (/[\\/]$/.test(out)) {
    throw refuse(
      'ends with a slash, so it names a folder',
      `Give a file name in it, e.g. --out ${join(out, example)}.`,
    );
  }
  const target = await stat(out).catch(() => undefined);
  if (target?.isDirectory()) {
    throw refuse('is a folder', `Give a file name in it, e.g. --out ${join(out, example)}.`);
  }
  const folder = dirname(resolve(out));
  const parent = await stat(folder).catch(() => undefined);
  if (parent === undefined) {
    throw refuse(`the folder ${folder} does not exist`, 'Create it first, or choose another path.');
  }
  if (!parent.isDirectory()) {
    throw refuse(`${folder} is not a folder`, 'Choose a path inside a folder.');
  }
  // The snapshot is written as <out>.partial beside it, then renamed: both need the folder writable.
  const writable = await access(folder, constants.W_OK | constants.X_OK).then(
    () => true,
    () => false,
  );
  if (!writable) {
    throw refuse(
      `the folder ${folder} is not writable`,
      'Choose a folder you can write to, or fix its permissions.',
    );
  }
}
