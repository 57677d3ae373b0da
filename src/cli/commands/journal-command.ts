/**
 * @module `memory-pool journal copy --to <postgres-url>`: copies the SQLite journal of the setup `--config`
 * names into a Postgres journal (checks first, resumable, idempotent, with a progress bar and a summary).
 * The URL may come from MEMORY_POOL_POSTGRES_URL instead; its password is never printed.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { postgresUrlProblem } from '../../config/journal-schema.js';
import { isMemoryPoolError } from '../../errors/memory-pool-error.js';
import type { CopyJournalSummary } from '../../maintenance/copy-journal.js';
import { readEnv } from '../../runtime/read-env.js';
import { loadCommandConfig } from '../command-context.js';
import { CommandFailure, type CommandOutput, configOption, processOutput, runCommand } from './command-io.js';
import { createCommandProgress } from './command-progress.js';
import { countNoun } from '../../runtime/count-noun.js';

export interface JournalCopyOptions {
  to?: string;
  config?: string;
  dryRun?: boolean;
  json?: boolean;
}

/** What tests set: the environment, the batch size, and a hook after each committed batch. */
export interface JournalCopyDeps {
  readonly env?: NodeJS.ProcessEnv;
  readonly batchSize?: number;
  readonly afterBatch?: (table: string) => void;
}

const ENV = 'MEMORY_POOL_POSTGRES_URL';

/** Runs the copy; resolves with the exit code (0 copied or counted, 1 refused or failed). */
export function runJournalCopy(
  options: JournalCopyOptions,
  io: CommandOutput = processOutput,
  deps: JournalCopyDeps = {},
): Promise<number> {
  return runCommand(io, async () => {
    const env = deps.env ?? process.env;
    // The variable names the copy's target here, read by targetOf; the config is the setup copied from.
    const config = loadCommandConfig(options.config, { ...env, [ENV]: undefined });
    const { url, label } = targetOf(options, env, config.journal?.postgres?.url);
    const [{ openSqliteCopySource }, { openPostgresCopyTarget }, { copyJournal }, { redactPostgresUrl }] =
      await Promise.all([
        import('../../journal/sqlite/sqlite-copy-source.js'),
        import('../../journal/postgres/postgres-copy-target.js'),
        import('../../maintenance/copy-journal.js'),
        import('../../journal/postgres/postgres-errors.js'),
      ]);
    const source = explained(label, () => openSqliteCopySource(config.dataDir));
    try {
      const target = await explainedAsync(label, () =>
        openPostgresCopyTarget(url, { readOnly: options.dryRun === true }),
      );
      const progress = await createCommandProgress(io, options.json === true);
      try {
        const summary = await explainedAsync(label, () =>
          copyJournal(source, target, {
            targetLabel: label,
            ...(options.dryRun === true ? { dryRun: true } : {}),
            ...(deps.batchSize === undefined ? {} : { batchSize: deps.batchSize }),
            ...(deps.afterBatch === undefined ? {} : { afterBatch: deps.afterBatch }),
            unmovedDiscordFile: unmovedDiscordFileIn(config.dataDir),
            onProgress: progress.update,
          }),
        );
        progress.stop();
        const where = redactPostgresUrl(url);
        io.out(
          options.json === true
            ? `${JSON.stringify({ from: config.dataDir, to: where, ...summary })}\n`
            : describeCopy(config.dataDir, where, summary),
        );
      } finally {
        progress.stop();
        await target.close();
      }
    } finally {
      source.close();
    }
    return 0;
  });
}

/**
 * The URL and the name it came by: --to, else the variable, else the config's journal.postgres.url (the
 * setup already names where it moves); a malformed one names its flag or variable.
 */
function targetOf(
  options: JournalCopyOptions,
  env: NodeJS.ProcessEnv,
  configured: string | undefined,
): { url: string; label: string } {
  const fromEnv = readEnv(env, ENV);
  const [url, label] =
    options.to !== undefined
      ? [options.to.trim(), '--to']
      : fromEnv !== undefined
        ? [fromEnv, ENV]
        : [configured, 'journal.postgres.url'];
  if (url === undefined || url === '') {
    throw new CommandFailure(
      `error: --to: journal copy needs the Postgres journal to copy into: pass --to postgres://user@host:5432/database (the password in PGPASSWORD), set ${ENV}, or set journal.postgres.url in the config.`,
    );
  }
  const problem = postgresUrlProblem(url);
  if (problem !== undefined) throw new CommandFailure(`error: ${label}: ${problem}`);
  return { url, label };
}

/** A memory-pool error as the command's one line; a config error about the URL names the flag it came by. */
function explain(label: string, error: unknown): unknown {
  if (!isMemoryPoolError(error)) return error;
  const message = error.message.replace(/^config journal\.postgres\.url: /, `${label}: `);
  return new CommandFailure(`error: ${message}`);
}

function explained<T>(label: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw explain(label, error);
  }
}

async function explainedAsync<T>(label: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw explain(label, error);
  }
}

function describeCopy(from: string, to: string, s: CopyJournalSummary): string {
  const lines = Object.entries(s.tables).map(([table, t]) =>
    s.dryRun
      ? `  ${table}: ${t.rows}`
      : `  ${table}: ${countNoun(t.rows, 'row')}, ${t.inserted} new, ${t.updated} updated, ${t.deleted} deleted`,
  );
  const head = s.dryRun
    ? `would copy the journal in ${from} to ${to}${s.resumed ? ' (continuing an interrupted copy)' : ''}:`
    : `copied the journal in ${from} to ${to}${s.resumed ? ' (continued an interrupted copy)' : ''}:`;
  const next = s.dryRun
    ? ''
    : `Next: stop the service, run this command again (it copies what changed), then set journal.postgres.url (or ${ENV}).\n`;
  return `${head}\n${lines.join('\n')}\n${next}`;
}

/** Registers `memory-pool journal copy --to <postgres-url> [--config FILE] [--dry-run] [--json]`. */
export function registerJournalCommand(program: Command): void {
  const journal = program
    .command('journal')
    .description('Tools for the journal (messages, chunks, tombstones)');
  journal
    .command('copy')
    .description('Copy the SQLite journal of this setup into a Postgres journal (resumable, idempotent)')
    .option(
      '--to <postgres-url>',
      `the Postgres journal to copy into (default: ${ENV}, else the config's journal.postgres.url)`,
    )
    .addOption(configOption())
    .option('--dry-run', 'check both ends and count the rows, write nothing')
    .option('--json', 'print a machine-readable summary')
    .action(async (options: JournalCopyOptions) => {
      process.exitCode = await runJournalCopy(options);
    });
}

/** The path of an older memory-pool's discord.sqlite that serve has not moved into the journal yet. */
function unmovedDiscordFileIn(dataDir: string): string | undefined {
  const path = join(dataDir, 'discord.sqlite');
  return existsSync(path) ? path : undefined;
}
