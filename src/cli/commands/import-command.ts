/**
 * @module `memory-pool import <kind> <files or folders> --bot B`: brings a history from SillyTavern, Discord,
 * ChatGPT or a JSONL file into a bot's memory, through the journal and chunk writer `/save` uses.
 */
import type { Command } from 'commander';
import { isMemoryPoolError } from '../../errors/memory-pool-error.js';
import type { ImportSummary } from '../../importers/import-history.js';
import { IMPORT_KINDS, type ImportReadOptions, isImportKind } from '../../importers/import-kinds.js';
import { connectCommandStore, loadBotConfig, routeCommandBots } from '../command-context.js';
import { CommandFailure, type CommandOutput, configOption, processOutput, runCommand } from './command-io.js';
import { createCommandProgress } from './command-progress.js';
import { countNoun } from '../../runtime/count-noun.js';

const NOTHING_WRITTEN = 'Nothing was written.';

export interface ImportCommandOptions extends ImportReadOptions {
  bot: string;
  config?: string;
  dryRun?: boolean;
  json?: boolean;
}

/** Runs the command; resolves with the exit code (1 also when some chunks could not be stored yet). */
export async function runImport(
  kind: string,
  paths: readonly string[],
  options: ImportCommandOptions,
  io: CommandOutput = processOutput,
): Promise<number> {
  return runCommand(io, () => importKind(kind, paths, options, io));
}

async function importKind(
  kind: string,
  paths: readonly string[],
  options: ImportCommandOptions,
  io: CommandOutput,
): Promise<number> {
  if (!isImportKind(kind)) {
    throw new CommandFailure(`error: unknown kind "${kind}". Use one of: ${IMPORT_KINDS.join(', ')}.`);
  }
  const config = loadBotConfig(options);
  const [{ readHistory }, { importHistory }] = await Promise.all([
    import('../../importers/import-kinds.js'),
    import('../../importers/import-history.js'),
  ]);
  let history: ReturnType<typeof readHistory>;
  try {
    // Every file is read and checked before anything is written: bad input changes nothing.
    history = readHistory(kind, paths, config.bots[options.bot]!, options);
  } catch (error) {
    // A ValidationError names the file, line and fix; anything else (a file that cannot be read) says why.
    const detail = isMemoryPoolError(error) ? error.message : String(error);
    throw new CommandFailure(`error: ${detail}${detail.endsWith('.') ? '' : '.'} ${NOTHING_WRITTEN}`);
  }
  const store = await connectCommandStore(config, 'import');
  const [{ createEmbedder }, { createLogger }, { openJournal }] = await Promise.all([
    import('../../embedding/create-embedder.js'),
    import('../../logging/logger.js'),
    import('../../journal/open-journal.js'),
  ]);
  // Logs go to stderr, so --json output stays one JSON document.
  const logger = createLogger({ level: 'warn', destination: process.stderr });
  const embedder = createEmbedder(config.embedding, { logger });
  const journal = await openJournal(config);
  const bar = await createCommandProgress(io, options.json === true);
  // After a reembed switch the history goes to the bot's live collection, embedded with its recorded model.
  const { config: routed, embedderFor } = await routeCommandBots(config, journal, embedder, logger);
  let summary: ImportSummary;
  /** Messages journaled (committed) before a failure: whether a refusal left anything behind. */
  let journaled = 0;
  let toJournal = 0;
  let reachedChunks = false;
  try {
    const deps = { config: routed, journal, store, embedder, embedderFor, logger };
    summary = await importHistory(deps, options.bot, history, {
      dryRun: options.dryRun === true,
      skipKnownToSillyTavern: kind === 'sillytavern',
      onProgress: (phase, done, total) => {
        if (phase === 'journal') [journaled, toJournal] = [done, total];
        else reachedChunks = true;
        bar.update(done, total, phase === 'journal' ? 'messages' : 'chunks');
      },
    });
  } catch (error) {
    bar.stop(); // before the message, so it is not drawn over
    const detail = isMemoryPoolError(error) ? error.message : String(error);
    const stopped = `error: import stopped: ${detail}${detail.endsWith('.') ? '' : '.'}`;
    if (options.dryRun === true) throw new CommandFailure(`${stopped} Dry run: nothing was written.`);
    if (journaled === 0 && !reachedChunks) throw new CommandFailure(`${stopped} ${NOTHING_WRITTEN}`);
    throw new CommandFailure(
      `${stopped} ${journaled} of ${countNoun(toJournal, 'message')} ${journaled === 1 ? 'was' : 'were'} journaled before it stopped; ` +
        'run it again to finish: what is already journaled counts as duplicates.',
    );
  } finally {
    bar.stop();
    await journal.close();
  }
  io.out(options.json === true ? `${JSON.stringify(summary)}\n` : describeSummary(summary));
  return summary.pendingMessages > 0 && !summary.dryRun ? 1 : 0;
}

function describeSummary(s: ImportSummary): string {
  const day = (ms: number | undefined) => (ms === undefined ? '-' : new Date(ms).toISOString().slice(0, 10));
  const lines = [
    `${s.collection} (bot ${s.bot}, source ${s.source})${s.dryRun ? ', dry run: nothing written' : ''}: ` +
      `read ${countNoun(s.read, 'message')} from ${day(s.oldest)} to ${day(s.newest)}.`,
    `${s.dryRun ? 'would add' : 'added'} ${s.accepted}, ${s.dryRun ? 'would edit' : 'edited'} ${s.edited}, ` +
      `${s.duplicates} already known, ${s.forgotten} forgotten earlier (left out), ` +
      `${s.alreadyInSillyTavern} already stored by st-qdrant-memory.`,
  ];
  // Each reason names its messages in the plural (it is also a key of --json's `skipped`), so the count follows it.
  for (const [reason, count] of Object.entries(s.skipped)) lines.push(`skipped ${reason}: ${count}.`);
  lines.push(...s.notes);
  if (!s.dryRun) {
    lines.push(
      s.pendingMessages === 0
        ? `${countNoun(s.chunksWritten, 'chunk')} written; every imported message is stored.`
        : `${countNoun(s.chunksWritten, 'chunk')} written; ${countNoun(s.pendingMessages, 'imported message')} still ${s.pendingMessages === 1 ? 'waits' : 'wait'} for a chunk (the store or ` +
            'the embedder failed, see the log above): serve writes them when it runs, or run import again.',
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Registers `memory-pool import <kind> <paths...> --bot B [options]`. */
export function registerImportCommand(program: Command): void {
  program
    .command('import')
    .description(
      "Bring a history into a bot's memory (SillyTavern chats, DiscordChatExporter JSON, ChatGPT export, JSONL); " +
        'safe beside a running serve, and a second run adds nothing',
    )
    .addArgument(program.createArgument('<kind>', 'what the files are').choices(IMPORT_KINDS))
    .argument('<paths...>', 'files or folders to read (folders are walked)')
    .requiredOption('--bot <name>', 'the bot whose memory receives the history')
    .addOption(configOption())
    .option('--source <name>', 'the source to tag the messages with (default: the kind; jsonl: import)')
    .option(
      '--user-name <name>',
      "the user's speaker name (sillytavern: instead of the persona name; chatgpt)",
    )
    .option(
      '--character <name>',
      "sillytavern: the character whose chats these are (default: the bot's selfSpeaker)",
    )
    .option('--self-id <id>', "discord: the agent's own Discord user id (its messages are the agent's)")
    .option('--dry-run', 'report what would be added, write nothing')
    .option('--json', 'print a machine-readable summary')
    .action(async (kind: string, paths: string[], options: ImportCommandOptions) => {
      process.exitCode = await runImport(kind, paths, options);
    });
}
