/**
 * @module The one context every command on a bot's memory stands on: the config and the bot checked first,
 * then the store, each failure a line that says the fix. The store is the running service's when something
 * serves it; when nothing serves the embedded store, the data commands (export, restore, reembed, stats,
 * doctor) open its folder here, while import and reindex, which write beside a service that owns it, ask for
 * `serve` (connectCommandStore).
 */
import type { MemoryPoolConfig } from '../config/config-types.js';
import { vectorsOnDiskOf } from '../config/vectors-on-disk.js';
import { maskUrl } from '../config/describe-config.js';
import { loadConfig } from '../config/load-config.js';
import type { Embedder } from '../embedding/embedder.js';
import { isMemoryPoolError } from '../errors/memory-pool-error.js';
import type { Journal } from '../journal/journal.js';
import type { Logger } from '../logging/logger.js';
import { formatHttpUrl } from '../runtime/format-http-url.js';
import type { MemoryStore } from '../store/memory-store.js';
import type { StoreAdmin } from '../store/store-admin.js';
import { CommandFailure } from './commands/command-io.js';

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

/** An error's message with `url` (which may carry credentials, from QDRANT_URL) masked wherever it is quoted. */
function cause(error: unknown, url: string): string {
  const message = (error instanceof Error ? error.message : String(error)).split(url).join(maskUrl(url));
  // A client may quote the URL as it parsed it: its password alone is masked too.
  const password = URL.canParse(url) ? new URL(url).password : '';
  return password === '' ? message : message.split(password).join('***');
}

/** The config with `bot` in it; throws CommandFailure saying what is wrong. */
export function loadBotConfig(options: {
  readonly config?: string | undefined;
  readonly bot: string;
}): MemoryPoolConfig {
  const config = loadCommandConfig(options.config);
  requireConfiguredBot(config, options.bot);
  return config;
}

/** A client of the config's store once it answers; throws CommandFailure saying how to make it answer. */
export async function connectCommandStore(config: MemoryPoolConfig, command: string): Promise<MemoryStore> {
  const { createQdrantPointStore } = await import('../store/qdrant/qdrant-point-store.js');
  const url = storeUrlOf(config);
  const client = createQdrantPointStore({
    url,
    ...(config.store.apiKey ? { apiKey: config.store.apiKey } : {}),
    vectorsOnDisk: vectorsOnDiskOf(config),
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
    throw new CommandFailure(
      `error: cannot reach the store at ${maskUrl(url)} (${cause(error, url)}). ${fix}`,
    );
  }
}

export interface DataToolContext {
  readonly config: MemoryPoolConfig;
  readonly store: MemoryStore;
  readonly admin: StoreAdmin;
  readonly journal: Journal;
  /** Where the store was reached, and whether this process opened it. */
  readonly storeUrl: string;
  readonly storeOpenedHere: boolean;
  close(): Promise<void>;
}

/** Loads the config (from `env`, default process.env) or throws CommandFailure with its problems. */
export function loadCommandConfig(configPath: string | undefined, env?: NodeJS.ProcessEnv): MemoryPoolConfig {
  try {
    return loadConfig({
      ...(configPath === undefined ? {} : { configPath }),
      ...(env === undefined ? {} : { env }),
    });
  } catch (error) {
    throw new CommandFailure(isMemoryPoolError(error) ? error.message : String(error));
  }
}

/** Throws CommandFailure naming the configured bots when `bot` is not one. */
export function requireConfiguredBot(config: MemoryPoolConfig, bot: string): void {
  if (config.bots[bot] !== undefined) return;
  throw new CommandFailure(unknownBotMessage(config, bot));
}

/** The store half of DataToolContext: what the doctor opens on its own, apart from the journal. */
export type DataStore = Omit<DataToolContext, 'config' | 'journal'>;

/**
 * Reaches the store: over its URL when something serves it (a real Qdrant, or `serve` with the embedded
 * store), else, for the embedded store, by opening its data folder here on a free loopback port.
 */
export async function openDataStore(config: MemoryPoolConfig): Promise<DataStore> {
  const [{ createQdrantPointStore }, { createQdrantStoreAdmin }] = await Promise.all([
    import('../store/qdrant/qdrant-point-store.js'),
    import('../store/qdrant/qdrant-store-admin.js'),
  ]);
  const apiKey = config.store.apiKey ? { apiKey: config.store.apiKey } : {};
  let url = storeUrlOf(config);
  let closeStore: () => Promise<void> = async () => undefined;
  let storeOpenedHere = false;
  try {
    await createQdrantPointStore({ url, ...apiKey, timeoutMs: 2_000 }).probe();
  } catch (error) {
    if (config.store.kind !== 'embedded') {
      throw new CommandFailure(
        `error: cannot reach Qdrant at ${maskUrl(url)} (${cause(error, url)}). Check store.qdrant.url / QDRANT_URL and that Qdrant is running.`,
      );
    }
    const { startQdrantServer } = await import('../qdrant-server/http/server.js');
    try {
      const server = await startQdrantServer({
        dataDir: config.store.path,
        host: '127.0.0.1',
        port: 0,
        ...apiKey,
      });
      url = server.url;
      closeStore = () => server.close();
      storeOpenedHere = true;
    } catch (openError) {
      throw new CommandFailure(
        `error: the embedded store at ${url} does not answer and its data folder cannot be opened here (${(openError as Error).message}). ` +
          'Start `memory-pool serve` with this config (the data commands run beside it), or stop the process holding the folder.',
      );
    }
  }
  return {
    store: createQdrantPointStore({
      url,
      ...apiKey,
      timeoutMs: 60_000,
      vectorsOnDisk: vectorsOnDiskOf(config),
    }),
    admin: createQdrantStoreAdmin({ url, ...apiKey }),
    storeUrl: url,
    storeOpenedHere,
    close: closeStore,
  };
}

/** The store (as openDataStore reaches it) and the journal; a journal that cannot be opened closes the store. */
export async function openDataTools(config: MemoryPoolConfig): Promise<DataToolContext> {
  const { openJournal } = await import('../journal/open-journal.js');
  const store = await openDataStore(config);
  let journal: Journal;
  try {
    journal = await openJournal(config);
  } catch (error) {
    await store.close();
    throw error;
  }
  return {
    ...store,
    config,
    journal,
    close: async () => {
      await journal.close();
      await store.close();
    },
  };
}

/** What a command that writes a bot's memory (import, reindex) needs of the service core. */
export interface CommandRouting {
  /** The config with each bot on the collection it uses now (after a reembed switch, the new one). */
  readonly config: MemoryPoolConfig;
  /** The embedder of the model recorded for a collection (the configured one when none was recorded). */
  embedderFor(collection: string): Promise<Embedder>;
}

/** Routes the config's bots as serve does (src/core/bot-collections.ts), embedding with `embedder` by default. */
export async function routeCommandBots(
  config: MemoryPoolConfig,
  journal: Journal,
  embedder: Embedder,
  logger: Logger,
): Promise<CommandRouting> {
  const [{ BotCollections }, { createEmbedder }] = await Promise.all([
    import('../core/bot-collections.js'),
    import('../embedding/create-embedder.js'),
  ]);
  const collections = new BotCollections({
    bots: config.bots,
    journal,
    configured: { embedder, queryEmbedder: embedder },
    build: (embedding) => {
      const built = createEmbedder(embedding, { logger });
      return { embedder: built, queryEmbedder: built };
    },
    logger,
  });
  const bots: [string, MemoryPoolConfig['bots'][string]][] = [];
  for (const [name, bot] of Object.entries(config.bots)) bots.push([name, await collections.route(bot)]);
  return {
    config: { ...config, bots: Object.fromEntries(bots) },
    embedderFor: (collection) => collections.embedderFor(collection),
  };
}
