/** @module `memory-pool export --bot B [--out file]`: one portable snapshot of a bot's memory (JSON Lines, gzip optional). */

import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { createGzip } from 'node:zlib';
import type { Command } from 'commander';
import { liveCollection } from '../../core/bot-collections.js';
import { type ExportSummary, exportSnapshot } from '../../maintenance/export-snapshot.js';
import { isGzipPath } from '../../maintenance/snapshot-format.js';
import { loadCommandConfig, openDataTools, requireConfiguredBot } from '../command-context.js';
import { checkExportDestination } from './check-export-destination.js';
import { CommandFailure, type CommandOutput, configOption, processOutput, runCommand } from './command-io.js';
import { createCommandProgress } from './command-progress.js';
import { countNoun } from '../../runtime/count-noun.js';

export interface ExportCommandOptions {
  bot: string;
  out?: string;
  gzip?: boolean;
  config?: string;
  dryRun?: boolean;
  json?: boolean;
}

/** Runs the command; resolves with the exit code. `stdout` receives the snapshot when there is no --out. */
export function runExport(
  options: ExportCommandOptions,
  io: CommandOutput = processOutput,
  stdout: Writable = process.stdout,
  now: () => number = Date.now,
): Promise<number> {
  return runCommand(io, async () => {
    const config = loadCommandConfig(options.config);
    requireConfiguredBot(config, options.bot);
    if (options.out !== undefined) await checkExportDestination(options.out, options.bot);
    const tools = await openDataTools(config);
    const progress = await createCommandProgress(io, options.json === true || options.out === undefined);
    const partial = options.out === undefined ? undefined : `${options.out}.partial`;
    let sink: Writable | undefined;
    let file: Writable | undefined;
    /** A failed write to the file (a full disk, a folder gone meanwhile): reported once, naming the path. */
    let writeError: Error | undefined;
    let renamed = false;
    if (options.dryRun !== true) {
      file = partial === undefined ? stdout : createWriteStream(partial);
      if (file !== stdout) {
        file.on('error', (error) => {
          writeError ??= error;
        });
      }
      const gzip = options.gzip === true || (options.out !== undefined && isGzipPath(options.out));
      sink = gzip ? createGzip() : file;
      if (sink !== file) sink.pipe(file);
    }
    const failedWrite = () =>
      writeError &&
      new CommandFailure(
        `error: --out ${options.out}: cannot be written (${writeError.message}). ${writeFix(writeError)}`,
      );
    let summary: ExportSummary;
    try {
      summary = await exportSnapshot(
        { store: tools.admin, journal: tools.journal, now },
        {
          bot: options.bot,
          collection: await liveCollection(tools.journal, config.bots[options.bot]!),
          write: async (text) => {
            const failed = failedWrite();
            if (failed) throw failed;
            if (sink !== undefined && !sink.write(text))
              await waitFor(sink, 'drain', file === stdout ? undefined : file);
          },
          onProgress: progress.update,
        },
      );
      if (sink !== undefined && file !== undefined) {
        if (sink !== stdout) sink.end();
        if (file !== stdout) await once(file, 'finish');
        else if (sink !== file) await once(sink, 'end');
      }
      // Written under .partial and renamed at the end: a file with the final name is always whole.
      if (partial !== undefined && options.out !== undefined && options.dryRun !== true) {
        await rename(partial, options.out);
        renamed = true;
      }
    } catch (error) {
      throw failedWrite() ?? error;
    } finally {
      progress.stop();
      await tools.close();
      // A failed export leaves no .partial behind (nothing resumes from it).
      if (partial !== undefined && file !== undefined && !renamed) {
        // Closed first: a file still being opened would otherwise appear after the removal.
        if (!file.closed) await once(file.destroy(), 'close').catch(() => undefined);
        // A .partial that is not a file (a folder of the same name) is not ours to remove.
        await rm(partial, { force: true }).catch(() => undefined);
      }
    }
    const report = { ...summary, out: options.out ?? null, dryRun: options.dryRun === true };
    // Without --out the snapshot itself is on stdout, so the summary goes to stderr.
    const write = options.out === undefined && options.dryRun !== true ? io.err : io.out;
    write(options.json === true ? `${JSON.stringify(report)}\n` : describeExport(report));
    return 0;
  });
}

/**
 * Waits for `event` on `stream` (once() rejects on its own error); a failed `file` behind a gzip stops the
 * gzip from draining, so the file's error ends the wait too.
 */
async function waitFor(stream: Writable, event: string, file: Writable | undefined): Promise<void> {
  const ac = new AbortController();
  const waits: Promise<unknown>[] = [once(stream, event, { signal: ac.signal })];
  if (file !== undefined && file !== stream) {
    waits.push(
      once(file, 'error', { signal: ac.signal }).then(([error]) => {
        throw error;
      }),
    );
  }
  try {
    await Promise.race(waits);
  } finally {
    ac.abort();
  }
}

function describeExport(s: ExportSummary & { out: string | null; dryRun: boolean }): string {
  const rows = Object.entries(s.rows)
    .map(([table, n]) => `${n} ${table}`)
    .join(', ');
  const where = s.dryRun ? 'would export' : `exported to ${s.out ?? 'stdout'}`;
  return (
    `${s.collection} (bot ${s.bot}, model ${s.model ?? 'not recorded'}): ${where} ${countNoun(s.points, 'point')} and journal rows (${rows}).\n` +
    `The parts index is not included: after a restore, \`memory-pool reindex --bot ${s.bot}\` rebuilds it.\n`
  );
}

/** Registers `memory-pool export --bot B [--out FILE] [--gzip] [--config FILE] [--dry-run] [--json]`. */
export function registerExportCommand(program: Command): void {
  program
    .command('export')
    .description(
      "Write a bot's memory (every point with its vector, and the journal rows) to one portable snapshot",
    )
    .requiredOption('--bot <name>', 'the bot whose memory to export')
    .option('--out <file>', 'snapshot file (.gz: gzipped); default: stdout')
    .option('--gzip', 'gzip the snapshot even without a .gz name')
    .addOption(configOption())
    .option('--dry-run', 'count what would be exported, write nothing')
    .option('--json', 'print a machine-readable summary')
    .action(async (options: ExportCommandOptions) => {
      process.exitCode = await runExport(options);
    });
}

/** Disk space is the fix only when the disk is full; a path that vanished or changed needs another path. */
function writeFix(error: NodeJS.ErrnoException): string {
  return error.code === 'ENOSPC' || error.code === 'EDQUOT'
    ? 'Free disk space or choose another path.'
    : 'Check that the path is still a writable file in a folder, or choose another path.';
}
