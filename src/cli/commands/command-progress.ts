/** @module The progress bar of the long-running commands: drawn on a terminal only, silent with --json or a pipe. */
import type { CommandOutput } from './command-io.js';

export interface CommandProgress {
  /** Shows `done` of `total`; a new `phase` starts the bar again under its name. */
  update(done: number, total: number, phase?: string): void;
  stop(): void;
}

/** Where the bar is drawn: stderr, so a snapshot or JSON on stdout stays clean. */
export type ProgressStream = NodeJS.WritableStream & { readonly isTTY?: boolean };

/**
 * A cli-progress bar on `stream` when both the output and that stream are terminals and the output is not
 * JSON; otherwise a no-op (`2> log` must not fill the log with redrawn bars).
 */
export async function createCommandProgress(
  io: CommandOutput,
  json: boolean,
  stream: ProgressStream = process.stderr,
): Promise<CommandProgress> {
  if (!io.isTTY || stream.isTTY !== true || json) return { update: () => undefined, stop: () => undefined };
  const { SingleBar, Presets } = await import('cli-progress');
  const bar = new SingleBar(
    { format: '{phase} [{bar}] {percentage}% | {value}/{total}', stream },
    Presets.shades_classic,
  );
  let current: string | undefined;
  return {
    update(done, total, phase = '') {
      if (current !== phase) {
        if (current !== undefined) bar.stop();
        bar.start(total, done, { phase });
        current = phase;
        return;
      }
      bar.setTotal(total);
      bar.update(done);
    },
    stop: () => {
      if (current !== undefined) bar.stop();
      current = undefined;
    },
  };
}
