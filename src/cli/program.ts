/** @module The CLI's public surface: every command, registered in one place. */
import { Command } from 'commander';
import { registerDoctorCommand } from './commands/doctor-command.js';
import { registerExportCommand } from './commands/export-command.js';
import { registerImportCommand } from './commands/import-command.js';
import { registerJournalCommand } from './commands/journal-command.js';
import { registerMcpCommand } from './commands/mcp-command.js';
import { registerPeopleCommand } from './commands/people-command.js';
import { registerQdrantCommand } from './commands/qdrant-command.js';
import { registerReembedCommand } from './commands/reembed-command.js';
import { registerReindexCommand } from './commands/reindex-command.js';
import { registerRestoreCommand } from './commands/restore-command.js';
import { registerServeCommand } from './commands/serve-command.js';
import { registerStatsCommand } from './commands/stats-command.js';

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
  // The data tools (issue 13).
  registerExportCommand(program);
  registerRestoreCommand(program);
  registerReembedCommand(program);
  registerDoctorCommand(program);
  registerStatsCommand(program);
  // Moving up to a shared Postgres journal (issue 24).
  registerJournalCommand(program);
  // One person across every interface (issue 33).
  registerPeopleCommand(program);
  return program;
}
