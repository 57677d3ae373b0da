/** @module `memory-pool doctor [--config F]`: every check a pass/fail line with its fix; exit 0 only when all pass. */
import type { Command } from 'commander';
import type { MemoryPoolConfig } from '../../config/config-types.js';
import type { Journal } from '../../journal/journal.js';
import type { DoctorCheck } from '../../maintenance/doctor-check.js';
import {
  checkApiKeys,
  checkBacklog,
  checkEmbedder,
  checkJournal,
  checkStore,
  type FreeSpace,
  journalFailure,
} from '../../maintenance/doctor-checks.js';
import { checkCollections } from '../../maintenance/doctor-collection-checks.js';
import { checkOrphanParts } from '../../maintenance/doctor-parts-checks.js';
import { checkRecallModes } from '../../maintenance/doctor-recall-mode.js';
import { type DataStore, loadCommandConfig, openDataStore } from '../command-context.js';
import { countNoun } from '../../runtime/count-noun.js';
import { type CommandOutput, configOption, processOutput, runCommand } from './command-io.js';

export interface DoctorCommandOptions {
  config?: string;
  json?: boolean;
}

/** What tests set in place of the clock and the disk. */
export interface DoctorDeps extends FreeSpace {
  readonly now?: () => number;
}

/** Runs every check it can (a config that does not load stops the rest); resolves with the exit code. */
export function runDoctor(
  options: DoctorCommandOptions,
  io: CommandOutput = processOutput,
  deps: DoctorDeps = {},
): Promise<number> {
  return runCommand(io, async () => {
    const checks: DoctorCheck[] = [];
    let config: MemoryPoolConfig | undefined;
    try {
      config = loadCommandConfig(options.config);
      checks.push({
        name: 'config valid',
        ok: true,
        detail: countNoun(Object.keys(config.bots).length, 'bot'),
      });
    } catch (error) {
      checks.push({
        name: 'config valid',
        ok: false,
        detail: (error as Error).message,
        fix: 'Fix the keys named above.',
      });
    }
    if (config !== undefined) checks.push(...(await runConfiguredChecks(config, deps)));
    io.out(
      options.json === true
        ? `${JSON.stringify({ ok: checks.every((c) => c.ok), checks })}\n`
        : formatChecks(checks),
    );
    return checks.every((c) => c.ok) ? 0 : 1;
  });
}

async function runConfiguredChecks(config: MemoryPoolConfig, deps: DoctorDeps): Promise<DoctorCheck[]> {
  const [{ createEmbedder }, { openJournal }] = await Promise.all([
    import('../../embedding/create-embedder.js'),
    import('../../journal/open-journal.js'),
  ]);
  const embedder = createEmbedder(config.embedding);
  const checks: DoctorCheck[] = [];
  // The store and the journal are opened apart, so a failure of one is reported as its own.
  let store: DataStore | undefined;
  let journal: Journal | undefined;
  try {
    store = await openDataStore(config);
  } catch (error) {
    checks.push({
      name: 'store reachable',
      ok: false,
      detail: (error as Error).message.replace(/^error: /, ''),
      fix: 'Start the store, then run doctor again.',
    });
  }
  const postgresUrl = config.journal?.postgres?.url;
  // Loaded only when named, as openJournal loads the driver: a SQLite setup never loads it.
  const postgres =
    postgresUrl === undefined ? undefined : await import('../../maintenance/doctor-postgres-checks.js');
  // Postgres is asked first, read-only: an unreachable server or a newer journal is its own line, not opened.
  const reached = postgresUrl === undefined ? undefined : await postgres?.checkPostgresReachable(postgresUrl);
  if (reached !== undefined) checks.push(...reached.checks);
  try {
    if (reached === undefined || reached.usable) journal = await openJournal(config);
  } catch (error) {
    checks.push(postgres?.postgresJournalFailure(error) ?? journalFailure(config.dataDir, error));
  }
  try {
    if (store !== undefined)
      checks.push(await checkStore(store.admin, store.storeUrl, store.storeOpenedHere));
    const embedded = await checkEmbedder(embedder);
    checks.push(embedded.check);
    // Without the journal, the collections in use (after a reembed switch) and their models are unknown.
    if (store !== undefined && journal !== undefined) {
      checks.push(
        ...(await checkCollections({ ...store, journal }, config, {
          model: embedder.model,
          dimensions: embedded.dimensions ?? embedder.dimensions,
        })),
        await checkOrphanParts(
          store.store,
          journal,
          store.storeOpenedHere ? undefined : store.storeUrl,
          Object.values(config.bots).map((bot) => bot.collection),
        ),
        ...(await checkRecallModes({ ...store, journal }, config)),
      );
    }
    if (journal !== undefined) {
      checks.push(
        await (postgres === undefined || postgresUrl === undefined
          ? checkJournal(journal, config.dataDir, deps)
          : postgres.checkPostgresWritable(journal, postgresUrl)),
        await checkBacklog(journal, (deps.now ?? Date.now)()),
      );
    }
    checks.push(...checkApiKeys(config));
  } finally {
    await journal?.close();
    await store?.close();
  }
  return checks;
}

function formatChecks(checks: readonly DoctorCheck[]): string {
  const lines = checks.map((c) =>
    c.ok ? `pass  ${c.name}: ${c.detail}` : `FAIL  ${c.name}: ${c.detail}\n      fix: ${c.fix}`,
  );
  const failed = checks.filter((c) => !c.ok).length;
  lines.push(
    '',
    failed === 0
      ? `All ${countNoun(checks.length, 'check')} pass.`
      : `${failed} of ${countNoun(checks.length, 'check')} ${failed === 1 ? 'fails' : 'fail'}.`,
  );
  return `${lines.join('\n')}\n`;
}

/** Registers `memory-pool doctor [--config FILE] [--json]`. */
export function registerDoctorCommand(program: Command): void {
  program
    .command('doctor')
    .description(
      'Check the config, store, collections, embedder, journal and keys; exit 0 only when all pass',
    )
    .addOption(configOption())
    .option('--json', 'print the checks as JSON')
    .action(async (options: DoctorCommandOptions) => {
      process.exitCode = await runDoctor(options);
    });
}
