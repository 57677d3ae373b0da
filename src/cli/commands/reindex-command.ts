/** @module `memory-pool reindex --bot B`: builds the parts of the chunks a bot stored before its parts index existed. */
import type { Command } from 'commander';
import type { ReindexSummary } from '../../parts/reindex-parts.js';
import { connectCommandStore, loadBotConfig, routeCommandBots } from '../command-context.js';
import { CommandFailure, type CommandOutput, configOption, processOutput, runCommand } from './command-io.js';
import { createCommandProgress } from './command-progress.js';
import { countNoun } from '../../runtime/count-noun.js';

export interface ReindexCommandOptions {
  bot: string;
  config?: string;
  dryRun?: boolean;
  json?: boolean;
}

/** Where the command writes; tests pass their own. */
export type ReindexOutput = CommandOutput;

/** Runs the command; resolves with the exit code. */
export async function runReindex(
  options: ReindexCommandOptions,
  io: ReindexOutput = processOutput,
): Promise<number> {
  return runCommand(io, () => reindex(options, io));
}

async function reindex(options: ReindexCommandOptions, io: ReindexOutput): Promise<number> {
  const config = loadBotConfig(options);
  // Loaded after the config is valid, so a mistake answers at once without loading models or SQLite.
  const [{ createEmbedder }, { createLogger }, { openJournal }, parts] = await Promise.all([
    import('../../embedding/create-embedder.js'),
    import('../../logging/logger.js'),
    import('../../journal/open-journal.js'),
    import('../../parts/reindex-parts.js'),
  ]);
  const [{ createPartsGuard }, { PartsIndex }, indexes] = await Promise.all([
    import('../../parts/parts-guard.js'),
    import('../../parts/parts-index.js'),
    import('../../store/service-indexes.js'),
  ]);
  const client = await connectCommandStore(config, 'reindex');
  // Logs go to stderr, so --json output stays one JSON document.
  const logger = createLogger({ level: 'warn', destination: process.stderr });
  const embedder = createEmbedder(config.embedding, { logger });
  const journal = await openJournal(config);
  const bar = await createCommandProgress(io, options.json === true);
  let summary: ReindexSummary;
  try {
    // After a reembed switch, the parts to build are the new collection's, embedded with its recorded model.
    const { config: routed, embedderFor } = await routeCommandBots(config, journal, embedder, logger);
    const index = new PartsIndex({
      bots: routed.bots,
      journal,
      store: client,
      embedder,
      embedderFor,
      // A parts collection reindex creates is filtered by dmWith as serve's is.
      guard: createPartsGuard(client, journal, {
        afterCreate: indexes.prepareServiceIndexesBeforeWrites(
          client,
          indexes.PARTS_INDEXES,
          indexes.logIndexFailure(logger),
        ),
      }),
    });
    summary = await parts.reindexParts(
      { config: routed, journal, store: client, parts: index },
      options.bot,
      {
        dryRun: options.dryRun === true,
        onProgress: (done, total) => bar.update(done, total, 'chunks'),
      },
    );
  } catch (error) {
    throw new CommandFailure(
      `error: reindex stopped: ${(error as Error).message}. Run it again: it redoes what is not done.`,
    );
  } finally {
    bar.stop();
    await journal.close();
  }
  io.out(options.json === true ? `${JSON.stringify(summary)}\n` : describeSummary(summary));
  return summary.unsettled > 0 ? 1 : 0;
}

function describeSummary(s: ReindexSummary): string {
  const verb = s.dryRun ? 'would write' : 'wrote';
  const lines = [
    `${s.collection} (bot ${s.bot}): ${countNoun(s.chunks, 'stored chunk')}, ${s.upToDate} already had their parts, ` +
      `${verb} ${countNoun(s.partsWritten, 'part')} for ${s.reindexed}.`,
  ];
  if (s.unsettled > 0) {
    lines.push(
      `${countNoun(s.unsettled, 'chunk')} ${s.unsettled === 1 ? 'was' : 'were'} being rewritten by serve and did not settle: run reindex again.`,
    );
  }
  lines.push(
    s.complete
      ? 'The parts index is complete: recall is hybrid.'
      : `The parts index is not complete${s.dryRun ? ' (dry run: nothing written)' : ''}: recall stays chunk-only.`,
  );
  if (s.sillyTavernPoints > 0) {
    lines.push(
      `${s.sillyTavernPoints} SillyTavern points (no source) have no parts; reindex does not index them.`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Registers `memory-pool reindex --bot B [--config FILE] [--dry-run] [--json]`. */
export function registerReindexCommand(program: Command): void {
  program
    .command('reindex')
    .description(
      "Build the parts of a bot's stored chunks, so recall turns hybrid (safe beside a running serve)",
    )
    .requiredOption('--bot <name>', 'the bot whose collection to reindex')
    .addOption(configOption())
    .option('--dry-run', 'report what would be written, write nothing')
    .option('--json', 'print a machine-readable summary')
    .action(async (options: ReindexCommandOptions) => {
      process.exitCode = await runReindex(options);
    });
}
