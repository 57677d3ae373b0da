/**
 * @module The command line's input and output: where a command writes (CommandOutput), the shared
 * `-c, --config` option, and the one failure style: a command body throws CommandFailure with the line to
 * print, and runCommand prints it on stderr and sets the exit code, in this one place.
 */
import { Option } from 'commander';

/** Where a command writes; tests pass their own. */
export interface CommandOutput {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  /** Whether stdout is a terminal (progress bars are drawn only then). */
  readonly isTTY: boolean;
}

export const processOutput: CommandOutput = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  isTTY: process.stdout.isTTY === true,
};

/** `-c, --config <file>`, as every command that reads the service's config takes it. */
export function configOption(): Option {
  return new Option(
    '-c, --config <file>',
    'YAML config file (default: ./memory-pool.yaml if present, else built-in defaults)',
  );
}

/** A failure already explained to the user: the command exits 1 with this message. */
export class CommandFailure extends Error {}

/** Runs a command body, turning CommandFailure and any error into a message on stderr and exit code 1. */
export async function runCommand(io: CommandOutput, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (error) {
    const message =
      error instanceof CommandFailure ? error.message : `error: ${(error as Error).message ?? String(error)}`;
    io.err(`${message}\n`);
    return 1;
  }
}
