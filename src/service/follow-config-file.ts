/**
 * @module Runs a reload when serve's config file changes (polled, so an editor or a config map that replaces
 * the file is followed as well as one that rewrites it) or when the process receives SIGHUP.
 */
import { type Stats, unwatchFile, watchFile } from 'node:fs';

/** How often the file is looked at: a revoked key stops working on every replica within about this. */
export const CONFIG_POLL_MS = 1000;

// Only what a write or a replacement changes: reading the file (atime) is not a change.
const sameFile = (a: Stats, b: Stats): boolean =>
  a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs && a.size === b.size && a.ino === b.ino;

/** Calls `reload` on each change of `path` and on SIGHUP; returns the function that stops following. */
export function followConfigFile(
  path: string,
  reload: () => void,
  options: { readonly intervalMs?: number } = {},
): () => void {
  const onChange = (current: Stats, previous: Stats) => {
    // An existing file of 0 bytes is an editor's truncate-then-write caught midway (read now, it would be the
    // built-in defaults, with no keys): the write that follows is the change to read. A deleted file (all
    // zeros) is read, so its reload says the file is missing.
    if (current.size === 0 && current.mtimeMs !== 0) return;
    if (!sameFile(current, previous)) reload();
  };
  // Not persistent: the HTTP server is what keeps serve running, not this poll.
  watchFile(path, { interval: options.intervalMs ?? CONFIG_POLL_MS, persistent: false }, onChange);
  // A listener also replaces SIGHUP's default (ending the process), as daemons that reload on it do.
  const onHangup = () => reload();
  process.on('SIGHUP', onHangup);
  return () => {
    unwatchFile(path, onChange);
    process.off('SIGHUP', onHangup);
  };
}
