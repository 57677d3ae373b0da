/** @module `memory-pool serve`: the memory service with its HTTP API (and the embedded store, when configured). */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { DiscordConfig, MemoryPoolConfig } from '../../config/config-types.js';
import { describeConfig } from '../../config/describe-config.js';
import { loadConfig } from '../../config/load-config.js';
import { DEFAULT_CONFIG_FILE } from '../../config/read-config-file.js';
import { isMemoryPoolError } from '../../errors/memory-pool-error.js';
import { createLogger, type LogFormat } from '../../logging/logger.js';
import { closeOnSignal } from '../close-on-signal.js';
import { applyDiscordCommandsFlag, discordCommandsOption } from '../discord-commands-option.js';
import { logFormatOption } from '../log-format-option.js';
import { describeStartup } from './startup-banner.js';
import { configOption } from './command-io.js';

interface ServeOptions {
  config?: string;
  logFormat?: LogFormat;
  discordCommands?: DiscordConfig['commands'];
}

async function runServe(options: ServeOptions): Promise<void> {
  const logger = createLogger(options.logFormat === undefined ? {} : { format: options.logFormat });
  let config: ReturnType<typeof loadConfig>;
  // Read the same way on each reload of the file, so only what the file changed differs.
  const load = () =>
    applyDiscordCommandsFlag(
      loadConfig(options.config === undefined ? {} : { configPath: options.config }),
      options.discordCommands,
    );
  try {
    config = load();
  } catch (error) {
    process.stderr.write(`${isMemoryPoolError(error) ? error.message : String(error)}\n`);
    process.exitCode = 1;
    return;
  }
  // Loaded after the config is valid, so a config error answers at once without loading models or SQLite.
  const [{ createEmbedder, createQueryEmbedder }, { startMemoryService }] = await Promise.all([
    import('../../embedding/create-embedder.js'),
    import('../../service/start-memory-service.js'),
  ]);
  const embedder = createEmbedder(config.embedding, { logger });
  // The whole configuration only at debug level (LOG_LEVEL=debug): the banner below says what a start needs.
  logger.debug({ config: describeConfig(config) }, 'starting memory-pool');
  let service: Awaited<ReturnType<typeof startMemoryService>>;
  try {
    service = await startMemoryService({
      config,
      embedder,
      queryEmbedder: createQueryEmbedder(config.embedding, { logger }),
      buildEmbedders: (embedding) => ({
        embedder: createEmbedder(embedding, { logger }),
        queryEmbedder: createQueryEmbedder(embedding, { logger }),
      }),
      logger,
      // The service has closed itself (the store's thread died, logged): exit 1 for the supervisor, at once
      // if nothing is left running, else after a second (unref'd, so it never holds the process either).
      onStopped: () => {
        process.exitCode = 1;
        setTimeout(() => process.exit(1), 1_000).unref();
      },
      ...followedFile(options.config, load),
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const hint = code === 'EADDRINUSE' ? ' A port is taken: change listen.port or store.embedded.port.' : '';
    process.stderr.write(`error: could not start memory-pool: ${(error as Error).message}.${hint}\n`);
    process.exitCode = 1;
    return;
  }
  logger.info(describeStartup(config, service, embedder), `memory-pool listening on ${service.url}`);
  closeOnSignal(logger, 'memory-pool', () => service.close());
}

/** The file serve follows for API key changes: `--config`, else ./memory-pool.yaml when it was read. */
function followedFile(configPath: string | undefined, load: () => MemoryPoolConfig) {
  const path = resolve(configPath ?? DEFAULT_CONFIG_FILE);
  return configPath === undefined && !existsSync(path) ? {} : { configFile: { path, load } };
}

/** Registers `memory-pool serve [--config FILE] [--log-format pretty|json] [--discord-commands guild|global|off]`. */
export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description(
      'Run the memory service (HTTP API on 127.0.0.1:3102 by default; embedded store unless QDRANT_URL)',
    )
    .addOption(configOption())
    .addOption(logFormatOption())
    .addOption(discordCommandsOption())
    .action((options: ServeOptions) => runServe(options));
}
