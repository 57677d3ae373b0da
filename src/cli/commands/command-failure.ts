/**
 * @module The command line's one failure style: a command body throws CommandFailure with the line to print,
 * and runCommand prints it on stderr and sets the exit code, in this one place.
 */
import type { CommandOutput } from './open-command-store.js';

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
