/** @module `memory-pool reindex --bot B`: builds the parts of the chunks a bot stored before its parts index existed. */
import type { Command } from 'commander';
import type { MemoryPoolConfig } from '../../config/config-types.js';
import { loadConfig } from '../../config/load-config.js';
import { isMemoryPoolError } from '../../errors/memory-pool-error.js';
import { routeBots } from '../../maintenance/route-bots.js';
import type { ReindexSummary } from '../../parts/reindex-parts.js';
import { formatHttpUrl } from '../../runtime/format-http-url.js';

export interface ReindexCommandOptions {
  bot: string;
  config?: string;
  dryRun?: boolean;
  json?: boolean;
}

/** Where the command writes; tests pass their own. */
export interface ReindexOutput {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  /** Whether stdout is a terminal (the progress bar is drawn only then). */
  readonly isTTY: boolean;
}

const processOutput: ReindexOutput = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  isTTY: process.stdout.isTTY === true,
};

/**
 * The store's REST URL. With the embedded store `serve` owns its data folder, so reindex talks to the running
 * service's store over HTTP rather than opening the folder a second time (two processes would each keep their
 * own copy of the points). A wildcard listen address is reached on loopback.
 */
export function storeUrlOf(config: MemoryPoolConfig): string {
  if (config.store.kind === 'qdrant') return config.store.url;
  const host = ['0.0.0.0', '::'].includes(config.store.host) ? '127.0.0.1' : config.store.host;
  return formatHttpUrl(host, config.store.port);
}

/** Runs the command; resolves with the exit code. */
export async function runReindex(
  options: ReindexCommandOptions,
  io: ReindexOutput = processOutput,
): Promise<number> {
  let config: MemoryPoolConfig;
  try {
    config = loadConfig(options.config === undefined ? {} : { configPath: options.config });
  } catch (error) {
    io.err(`${isMemoryPoolError(error) ? error.message : String(error)}\n`);
    return 1;
  }
  if (config.bots[options.bot] === undefined) {
    io.err(
      `error: --bot ${options.bot} is not a bot of this config (bots: ${Object.keys(config.bots).join(', ')}). ` +
        'Pass one of them, or --config the file that defines it.\n',
    );
    return 1;
  }
  // Loaded after the config is valid, so a mistake answers at once without loading models or SQLite.
  const [{ createEmbedder }, { createLogger }, { openMessageJournal }, store, parts] = await Promise.all([
    import('../../embedding/create-embedder.js'),
    import('../../logging/logger.js'),
    import('../../journal/message-journal.js'),
    import('../../store/qdrant/qdrant-point-store.js'),
    import('../../parts/reindex-parts.js'),
  ]);
  const [{ createPartsGuard }, { PartsIndex }] = await Promise.all([
    import('../../parts/parts-guard.js'),
    import('../../parts/parts-index.js'),
  ]);
  const url = storeUrlOf(config);
  const client = store.createQdrantPointStore({
    url,
    ...(config.store.apiKey ? { apiKey: config.store.apiKey } : {}),
  });
  try {
    await client.probe();
  } catch (error) {
    const fix =
      config.store.kind === 'embedded'
        ? '`memory-pool serve` owns the embedded store: start it with this config and run reindex again ' +
          `(reindex runs safely beside it), or serve the store alone with \`memory-pool qdrant --data ${config.store.path} --port ${config.store.port}\`.`
        : 'Check store.qdrant.url / QDRANT_URL and that Qdrant is running.';
    io.err(`error: cannot reach the store at ${url} (${(error as Error).message}). ${fix}\n`);
    return 1;
  }
  // Logs go to stderr, so --json output stays one JSON document.
  const logger = createLogger({ level: 'warn', destination: process.stderr });
  const embedder = createEmbedder(config.embedding, { logger });
  const journal = openMessageJournal(config.dataDir);
  // After a reembed switch, the parts to build are the new collection's.
  config = { ...config, bots: routeBots(config.bots, journal) };
  const { SingleBar, Presets } = await import('cli-progress');
  const bar = io.isTTY && options.json !== true ? new SingleBar({}, Presets.shades_classic) : undefined;
  let barStarted = false;
  let summary: ReindexSummary;
  try {
    const index = new PartsIndex({
      bots: config.bots,
      journal,
      store: client,
      embedder,
      guard: createPartsGuard(client, journal),
    });
    summary = await parts.reindexParts({ config, journal, store: client, parts: index }, options.bot, {
      dryRun: options.dryRun === true,
      onProgress: (done, total) => {
        if (bar === undefined) return;
        if (!barStarted) bar.start(total, done);
        else bar.update(done);
        barStarted = true;
      },
    });
  } catch (error) {
    io.err(
      `error: reindex stopped: ${(error as Error).message}. Run it again: it redoes what is not done.\n`,
    );
    return 1;
  } finally {
    bar?.stop();
    journal.close();
  }
  io.out(options.json === true ? `${JSON.stringify(summary)}\n` : describeSummary(summary));
  return summary.unsettled > 0 ? 1 : 0;
}

function describeSummary(s: ReindexSummary): string {
  const verb = s.dryRun ? 'would write' : 'wrote';
  const lines = [
    `${s.collection} (bot ${s.bot}): ${s.chunks} stored chunks, ${s.upToDate} already had their parts, ` +
      `${verb} ${s.partsWritten} parts for ${s.reindexed}.`,
  ];
  if (s.unsettled > 0) {
    lines.push(`${s.unsettled} chunks were being rewritten by serve and did not settle: run reindex again.`);
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
    .option(
      '-c, --config <file>',
      'YAML config file (default: ./memory-pool.yaml if present, else built-in defaults)',
    )
    .option('--dry-run', 'report what would be written, write nothing')
    .option('--json', 'print a machine-readable summary')
    .action(async (options: ReindexCommandOptions) => {
      process.exitCode = await runReindex(options);
    });
}
