/** @module The CLI's public surface: every command, registered in one place. */
import { Command } from 'commander';
import { registerImportCommand } from './commands/import-command.js';
import { registerMcpCommand } from './commands/mcp-command.js';
import { registerQdrantCommand } from './commands/qdrant-command.js';
import { registerReindexCommand } from './commands/reindex-command.js';
import { registerServeCommand } from './commands/serve-command.js';

/** Builds the `memory-pool` program with all commands. */
export function buildProgram(): Command {
  const program = new Command('memory-pool')
    .description('One shared long-term memory for an AI companion, stored in Qdrant.')
    .showHelpAfterError();
  registerServeCommand(program);
  registerQdrantCommand(program);
  registerMcpCommand(program);
  registerReindexCommand(program);
  registerImportCommand(program);
  return program;
}
