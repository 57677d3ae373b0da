/** @module `memory-pool restore <file> --bot B [--into-collection C]`: a snapshot back into an empty collection. */

import { closeSync, createReadStream, existsSync, openSync, readSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import type { Command } from 'commander';
import { liveCollection } from '../../core/bot-collections.js';
import { ValidationError } from '../../errors/memory-pool-error.js';
import type { SnapshotSource } from '../../maintenance/read-snapshot.js';
import { type RestoreSummary, restoreSnapshot } from '../../maintenance/restore-snapshot.js';
import { isPartsName } from '../../parts/parts-ownership.js';
import { loadCommandConfig, openDataTools, requireConfiguredBot } from '../command-context.js';
import { CommandFailure, type CommandOutput, configOption, processOutput, runCommand } from './command-io.js';
import { createCommandProgress } from './command-progress.js';
import { countNoun } from '../../runtime/count-noun.js';

export interface RestoreCommandOptions {
  bot: string;
  intoCollection?: string;
  config?: string;
  dryRun?: boolean;
  json?: boolean;
}

/** The file's lines, gunzipped when it starts with gzip's magic bytes (whatever its name). */
export function snapshotFileSource(file: string): SnapshotSource {
  const header = Buffer.alloc(2);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, header, 0, 2, 0);
  } finally {
    closeSync(fd);
  }
  const gzipped = header[0] === 0x1f && header[1] === 0x8b;
  return async function* () {
    const raw = createReadStream(file);
    try {
      yield* createInterface({ input: gzipped ? raw.pipe(createGunzip()) : raw, crlfDelay: Infinity });
    } catch (error) {
      throw gzipped ? describeGzipFailure(file, error) : error;
    } finally {
      raw.destroy();
    }
  };
}

/** zlib's bare "unexpected end of file" (or a damaged block), as what it means for this file and the fix. */
function describeGzipFailure(file: string, error: unknown): unknown {
  const code = (error as { code?: unknown }).code;
  if (code === 'Z_BUF_ERROR') {
    return new ValidationError(
      file,
      `${file} is cut off: its gzip data ends early. Export the bot again, or copy the file again in full.`,
    );
  }
  if (code === 'Z_DATA_ERROR') {
    return new ValidationError(
      file,
      `${file} is damaged: its gzip data cannot be read (${(error as Error).message}). Export the bot again, or copy the file again.`,
    );
  }
  return error;
}

/** Runs the command; resolves with the exit code. */
export function runRestore(
  file: string,
  options: RestoreCommandOptions,
  io: CommandOutput = processOutput,
): Promise<number> {
  return runCommand(io, async () => {
    const config = loadCommandConfig(options.config);
    requireConfiguredBot(config, options.bot);
    // A `__parts` collection is a parts index memory-pool may delete when its collection is gone.
    if (options.intoCollection !== undefined && isPartsName(options.intoCollection))
      throw new CommandFailure(
        `error: --into-collection ${options.intoCollection}: a name ending in \`__parts\` is where memory-pool keeps a collection's parts index. Pick another collection name.`,
      );
    if (!existsSync(file))
      throw new CommandFailure(
        `error: ${file} does not exist. Pass the snapshot written by \`memory-pool export\`.`,
      );
    const { createEmbedder } = await import('../../embedding/create-embedder.js');
    const tools = await openDataTools(config);
    const progress = await createCommandProgress(io, options.json === true);
    let summary: RestoreSummary;
    try {
      const collection =
        options.intoCollection ?? (await liveCollection(tools.journal, config.bots[options.bot]!));
      summary = await restoreSnapshot(
        { store: tools.admin, indexes: tools.store, journal: tools.journal },
        {
          file,
          source: snapshotFileSource(file),
          bot: options.bot,
          collection,
          configuredModel: createEmbedder(config.embedding).model,
          dryRun: options.dryRun === true,
          onProgress: progress.update,
        },
      );
    } finally {
      progress.stop();
      await tools.close();
    }
    io.out(
      options.json === true
        ? `${JSON.stringify(summary)}\n`
        : // Without --into-collection the restore went to the collection the bot uses now (even after a switch).
          describeRestore(
            summary,
            options.intoCollection === undefined ? summary.collection : config.bots[options.bot]!.collection,
          ),
    );
    return 0;
  });
}

function describeRestore(s: RestoreSummary, configured: string): string {
  const lines = s.alreadyRestored
    ? [`${s.collection} (bot ${s.bot}) already holds this snapshot: nothing to do.`]
    : [
        `${s.collection} (bot ${s.bot}): ${s.dryRun ? 'would restore' : 'restored'} ${countNoun(s.points, 'point')} and ` +
          `${countNoun(s.rowsInserted, 'journal row')}${s.dryRun ? ' (dry run: nothing written)' : ''}.`,
      ];
  for (const warning of s.warnings) lines.push(`warning: ${warning}`);
  if (s.collection !== configured) lines.push(`Set bots.${s.bot}.collection to ${s.collection} to use it.`);
  if (!s.dryRun && !s.alreadyRestored)
    lines.push(
      `Run \`memory-pool reindex --bot ${s.bot}\` to rebuild the parts index (recall is chunk-only until then).`,
    );
  return `${lines.join('\n')}\n`;
}

/** Registers `memory-pool restore <file> --bot B [--into-collection C] [--config FILE] [--dry-run] [--json]`. */
export function registerRestoreCommand(program: Command): void {
  program
    .command('restore')
    .description(
      'Restore a snapshot from `memory-pool export` into an empty collection (embedded store or Qdrant)',
    )
    .argument('<file>', 'the snapshot (.jsonl, gzipped or not)')
    .requiredOption('--bot <name>', 'the bot the memory is restored for')
    .option('--into-collection <name>', "collection to restore into (default: the bot's collection)")
    .addOption(configOption())
    .option('--dry-run', 'check the file and the target, write nothing')
    .option('--json', 'print a machine-readable summary')
    .action(async (file: string, options: RestoreCommandOptions) => {
      process.exitCode = await runRestore(file, options);
    });
}
