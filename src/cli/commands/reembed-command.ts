/**
 * @module `memory-pool reembed --bot B --to <file>`: moves a bot's memory to another embedding model
 * (build, then switch), `--rollback` switches back, `--drop-old` deletes the collection left behind.
 */
import type { Command } from 'commander';
import type { MemoryPoolConfig } from '../../config/config-types.js';
import { type EmbeddingSection, loadEmbeddingFile } from '../../config/load-embedding-section.js';
import { DEFAULT_CONFIG_FILE } from '../../config/read-config-file.js';
import { isMemoryPoolError } from '../../errors/memory-pool-error.js';
import {
  type ReembedAction,
  type ReembedSummary,
  reembedCollection,
} from '../../maintenance/reembed-collection.js';
import { formatHttpUrl } from '../../runtime/format-http-url.js';
import { loadCommandConfig, openDataTools, requireConfiguredBot } from '../command-context.js';
import { CommandFailure, type CommandOutput, configOption, processOutput, runCommand } from './command-io.js';
import { createCommandProgress } from './command-progress.js';
import { countNoun } from '../../runtime/count-noun.js';

export interface ReembedCommandOptions {
  bot: string;
  to?: string;
  rollback?: boolean;
  dropOld?: boolean;
  config?: string;
  dryRun?: boolean;
  json?: boolean;
}

/**
 * The `embedding:` section of the `--to` file (or, without it, of the config file), validated as the config's
 * own and as written, for the journal. The MEMORY_POOL_* variables that set the current model are left out,
 * so they do not override the new one; `${VAR}` in the file works and stays unexpanded in the journal.
 */
export function loadTargetEmbedding(
  file: string | undefined,
  configFile: string | undefined,
): EmbeddingSection {
  const path = file ?? configFile;
  try {
    return loadEmbeddingFile(path);
  } catch (error) {
    const option = file === undefined ? '--config' : '--to';
    throw new CommandFailure(
      `${isMemoryPoolError(error) ? error.message : String(error)} (in ${option} ${path ?? DEFAULT_CONFIG_FILE})`,
    );
  }
}

/** Whether `memory-pool serve` answers on the config's listen address. */
async function isServeRunning(config: MemoryPoolConfig): Promise<boolean> {
  const host = ['0.0.0.0', '::'].includes(config.listen.host) ? '127.0.0.1' : config.listen.host;
  try {
    const response = await fetch(`${formatHttpUrl(host, config.listen.port)}/health`, {
      signal: AbortSignal.timeout(1_000),
    });
    return response.ok;
  } catch {
    return false;
  }
}

/** Runs the command; resolves with the exit code (1 while the switch waits for something). */
export function runReembed(
  options: ReembedCommandOptions,
  io: CommandOutput = processOutput,
): Promise<number> {
  return runCommand(io, async () => {
    const config = loadCommandConfig(options.config);
    requireConfiguredBot(config, options.bot);
    if (options.rollback === true && options.dropOld === true) {
      throw new CommandFailure('error: pass one of --rollback and --drop-old, not both.');
    }
    const action: ReembedAction =
      options.rollback === true ? 'rollback' : options.dropOld === true ? 'drop-old' : 'build';
    if (action === 'build' && options.to === undefined) {
      throw new CommandFailure(
        'error: --to <file> is required: a YAML file whose `embedding:` section is the new model (as in memory-pool.yaml).',
      );
    }
    const target = loadTargetEmbedding(options.to, options.config);
    // Without --to (a rollback): the config's embedding, with the MEMORY_POOL_* overrides it was loaded with.
    const embedding = options.to === undefined ? config.embedding : target.embedding;
    const [{ createEmbedder }, { createLogger }] = await Promise.all([
      import('../../embedding/create-embedder.js'),
      import('../../logging/logger.js'),
    ]);
    const embedder = createEmbedder(embedding, {
      logger: createLogger({ level: 'warn', destination: process.stderr }),
    });
    const tools = await openDataTools(config);
    const progress = await createCommandProgress(io, options.json === true);
    let summary: ReembedSummary;
    try {
      summary = await reembedCollection(
        {
          store: tools.store,
          admin: tools.admin,
          journal: tools.journal,
          embedder,
          embedding: target.written,
          bots: config.bots,
        },
        {
          bot: config.bots[options.bot]!,
          action,
          dryRun: options.dryRun === true,
          serveRunning: !tools.storeOpenedHere && (await isServeRunning(config)),
          onProgress: progress.update,
        },
      );
    } catch (error) {
      throw new CommandFailure(`error: ${(error as Error).message}`);
    } finally {
      progress.stop();
      await tools.close();
    }
    io.out(options.json === true ? `${JSON.stringify(summary)}\n` : describeReembed(summary, embedder.model));
    return summary.pending === undefined || summary.dryRun ? 0 : 1;
  });
}

function describeReembed(s: ReembedSummary, model: string): string {
  const lines: string[] = [];
  if (s.sync) {
    lines.push(
      `${s.from} → ${s.to} (${model}): ${countNoun(s.sync.points, 'point')}, ${s.sync.embedded} ${s.dryRun ? 'to embed' : 'embedded'}, ` +
        `${s.sync.deleted} forgotten ones deleted, ${countNoun(s.sync.passes, 'pass', 'passes')}.`,
    );
  }
  if (s.parts) {
    lines.push(
      `${s.to}__parts: ${countNoun(s.parts.chunks, 'chunk')}, ${s.parts.built} ${s.dryRun ? 'to index' : 'indexed'} ` +
        `(${countNoun(s.parts.parts, 'part')}), ${s.parts.upToDate} already indexed, ${s.parts.deleted} forgotten ones deleted.`,
    );
  }
  if (s.dropped !== undefined && !s.dryRun)
    lines.push(`Deleted ${s.dropped} and its parts index; its name now points at ${s.to} (an alias).`);
  if (s.pending !== undefined) lines.push(`Not switched: ${s.pending}.`);
  else if (s.action !== 'drop-old') {
    lines.push(
      s.from === s.to
        ? `Bot ${s.bot} already uses ${s.to} with ${model}: nothing to do.`
        : `Switched: bot ${s.bot} now uses ${s.to}, embedded with ${model}; a running serve follows at once (no restart). ` +
            `Set embedding in the config to ${model}'s settings when convenient (serve follows the journal until then); ` +
            `recall uses ${s.to}'s parts index, built with it; ${s.from} is kept until --drop-old (--rollback switches back).`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Registers `memory-pool reembed --bot B --to FILE [--rollback | --drop-old] [--config FILE] [--dry-run] [--json]`. */
export function registerReembedCommand(program: Command): void {
  program
    .command('reembed')
    .description("Move a bot's memory to another embedding model: build a new collection, then switch to it")
    .requiredOption('--bot <name>', 'the bot whose memory to move')
    .option(
      '--to <file>',
      "YAML file whose `embedding:` section is the new model (for --rollback: the old one; default: the config's)",
    )
    .option(
      '--rollback',
      'switch back to the collection used before the switch (syncing what was written since)',
    )
    .option('--drop-old', 'delete the collection used before the switch, and point its name at the new one')
    .addOption(configOption())
    .option('--dry-run', 'report what would be embedded, write nothing')
    .option('--json', 'print a machine-readable summary')
    .action(async (options: ReembedCommandOptions) => {
      process.exitCode = await runReembed(options);
    });
}
