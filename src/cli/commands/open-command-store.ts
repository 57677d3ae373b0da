/**
 * @module What the commands that work on a bot's memory beside `serve` (reindex, import) share: the config and
 * the bot checked first, then the store reached over its REST URL, each failure a line that says the fix.
 */
import type { MemoryPoolConfig } from '../../config/config-types.js';
import { loadConfig } from '../../config/load-config.js';
import { isMemoryPoolError } from '../../errors/memory-pool-error.js';
import { CommandFailure } from './command-failure.js';
import { formatHttpUrl } from '../../runtime/format-http-url.js';
import type { MemoryStore } from '../../store/memory-store.js';

/** Where a command writes; tests pass their own. */
export interface CommandOutput {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  /** Whether stdout is a terminal (progress bars are drawn only then). */
  readonly isTTY: boolean;
}

export const processOutput: CommandOutput = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  isTTY: process.stdout.isTTY === true,
};

/**
 * The store's REST URL. With the embedded store `serve` owns its data folder, so these commands talk to the
 * running service's store over HTTP rather than opening the folder a second time (two processes would each keep
 * their own copy of the points). A wildcard listen address is reached on loopback.
 */
export function storeUrlOf(config: MemoryPoolConfig): string {
  if (config.store.kind === 'qdrant') return config.store.url;
  const host = ['0.0.0.0', '::'].includes(config.store.host) ? '127.0.0.1' : config.store.host;
  return formatHttpUrl(host, config.store.port);
}

/** What a command says when `--bot` names a bot the config does not have. */
export function unknownBotMessage(config: MemoryPoolConfig, bot: string): string {
  return (
    `error: --bot ${bot} is not a bot of this config (bots: ${Object.keys(config.bots).join(', ')}). ` +
    'Pass one of them, or --config the file that defines it.'
  );
}

/** The config with `bot` in it; throws CommandFailure saying what is wrong. */
export function loadBotConfig(options: {
  readonly config?: string | undefined;
  readonly bot: string;
}): MemoryPoolConfig {
  let config: MemoryPoolConfig;
  try {
    config = loadConfig(options.config === undefined ? {} : { configPath: options.config });
  } catch (error) {
    throw new CommandFailure(isMemoryPoolError(error) ? error.message : String(error));
  }
  if (config.bots[options.bot] === undefined)
    throw new CommandFailure(unknownBotMessage(config, options.bot));
  return config;
}

/** A client of the config's store once it answers; throws CommandFailure saying how to make it answer. */
export async function connectCommandStore(config: MemoryPoolConfig, command: string): Promise<MemoryStore> {
  const { createQdrantPointStore } = await import('../../store/qdrant/qdrant-point-store.js');
  const url = storeUrlOf(config);
  const client = createQdrantPointStore({
    url,
    ...(config.store.apiKey ? { apiKey: config.store.apiKey } : {}),
  });
  try {
    await client.probe();
    return client;
  } catch (error) {
    const fix =
      config.store.kind === 'embedded'
        ? `\`memory-pool serve\` owns the embedded store: start it with this config and run ${command} again ` +
          `(${command} runs safely beside it), or serve the store alone with \`memory-pool qdrant --data ${config.store.path} --port ${config.store.port}\`.`
        : 'Check store.qdrant.url / QDRANT_URL and that Qdrant is running.';
    throw new CommandFailure(`error: cannot reach the store at ${url} (${(error as Error).message}). ${fix}`);
  }
}
