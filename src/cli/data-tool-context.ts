/**
 * @module What the data commands (export, restore, reembed, stats) stand on: the config, the store (the
 * running service's, or the embedded store opened in-process when nothing serves it), the journal and a
 * progress bar drawn only on a terminal.
 */
import type { MemoryPoolConfig } from '../config/config-types.js';
import { loadConfig } from '../config/load-config.js';
import { isMemoryPoolError } from '../errors/memory-pool-error.js';
import type { MessageJournal } from '../journal/message-journal.js';
import type { StoreAdmin } from '../store/store-admin.js';
import { storeUrlOf, unknownBotMessage } from './commands/open-command-store.js';
import { CommandFailure } from './commands/command-failure.js';
import type { MemoryStore } from '../store/memory-store.js';

// The data commands write where reindex and import write.
export { type CommandOutput, processOutput } from './commands/open-command-store.js';

export interface DataToolContext {
  readonly config: MemoryPoolConfig;
  readonly store: MemoryStore;
  readonly admin: StoreAdmin;
  readonly journal: MessageJournal;
  /** Where the store was reached, and whether this process opened it. */
  readonly storeUrl: string;
  readonly storeOpenedHere: boolean;
  close(): Promise<void>;
}

/** Loads the config or throws CommandFailure with its problems. */
export function loadCommandConfig(configPath: string | undefined): MemoryPoolConfig {
  try {
    return loadConfig(configPath === undefined ? {} : { configPath });
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
        `error: cannot reach Qdrant at ${url} (${(error as Error).message}). Check store.qdrant.url / QDRANT_URL and that Qdrant is running.`,
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
    store: createQdrantPointStore({ url, ...apiKey, timeoutMs: 60_000 }),
    admin: createQdrantStoreAdmin({ url, ...apiKey }),
    storeUrl: url,
    storeOpenedHere,
    close: closeStore,
  };
}

/** The store (as openDataStore reaches it) and the journal; a journal that cannot be opened closes the store. */
export async function openDataTools(config: MemoryPoolConfig): Promise<DataToolContext> {
  const { openMessageJournal } = await import('../journal/message-journal.js');
  const store = await openDataStore(config);
  let journal: MessageJournal;
  try {
    journal = openMessageJournal(config.dataDir);
  } catch (error) {
    await store.close();
    throw error;
  }
  return {
    ...store,
    config,
    journal,
    close: async () => {
      journal.close();
      await store.close();
    },
  };
}
