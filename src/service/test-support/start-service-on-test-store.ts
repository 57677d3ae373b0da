/**
 * @module A test service on the store the data-tool and importer tests run against: the Qdrant at QDRANT_URL
 * (through start-test-qdrant.ts) when it is set, else the service's own embedded store, as a user runs it.
 * The bot's collection is named for this run, and with a shared Qdrant every collection named after it
 * (parts, a reembed's target) is deleted by close, so runs neither meet nor leave anything behind.
 */
import { randomUUID } from 'node:crypto';
import { QdrantClient } from '@qdrant/js-client-rest';
import type { BotConfig } from '../../config/config-types.js';
import { readEnv } from '../../runtime/read-env.js';
import { startTestQdrant } from './start-test-qdrant.js';
import { startTestService, type TestService, type TestServiceOptions } from './start-test-service.js';

export interface ServiceOnTestStore {
  /** Its close() also deletes the run's collections from a shared Qdrant. */
  readonly service: TestService;
  /** A client of the service's store. */
  readonly client: QdrantClient;
  /** The bot's collection, unique to this run. */
  readonly collection: string;
}

/** Starts the service with `bot`, its collection renamed `<collection>_<run id>`. */
export async function startServiceOnTestStore(
  bot: BotConfig,
  options: Omit<TestServiceOptions, 'bots' | 'config'> = {},
): Promise<ServiceOnTestStore> {
  const collection = `${bot.collection}_${randomUUID().slice(0, 8)}`;
  const qdrant = readEnv(process.env, 'QDRANT_URL') === undefined ? undefined : await startTestQdrant();
  const service = await startTestService({
    ...options,
    bots: [{ ...bot, collection }],
    ...(qdrant === undefined
      ? {}
      : {
          config: {
            store: { kind: 'qdrant', url: qdrant.url, ...(qdrant.apiKey ? { apiKey: qdrant.apiKey } : {}) },
          },
        }),
  });
  const client = storeClientOf(service);
  const closeService = service.close;
  return {
    service: Object.assign(service, {
      async close() {
        await closeService();
        if (qdrant === undefined) return; // the embedded store went with the service's folder
        for (const { name } of (await client.getCollections()).collections) {
          if (name.startsWith(collection)) await client.deleteCollection(name);
        }
        await qdrant.close();
      },
    }),
    client,
    collection,
  };
}

/** The same service started again on its folder and store (after `stop()`), for restart tests. */
export function restartTestService(service: TestService): Promise<TestService> {
  return startTestService({
    dir: service.dir,
    bots: Object.values(service.config.bots),
    config: { store: service.config.store },
  });
}

/** A client of the store `service` writes to (a restarted embedded store listens on a new port). */
export function storeClientOf(service: TestService): QdrantClient {
  const { apiKey } = service.config.store;
  return new QdrantClient({
    url: service.storeUrl!,
    ...(apiKey ? { apiKey } : {}),
    checkCompatibility: false,
  });
}
