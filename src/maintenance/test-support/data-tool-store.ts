/**
 * @module The store data-tool tests write to: the embedded store, or a real Qdrant when QDRANT_URL is set
 * (start-test-qdrant.ts). Collections get unique names and are deleted at the end, so runs against a shared
 * Qdrant neither meet nor leave anything behind; the adapters can be wrapped in store hooks to fail on cue.
 */
import { randomUUID } from 'node:crypto';
import { QdrantClient } from '@qdrant/js-client-rest';
import { StoreError } from '../../errors/memory-pool-error.js';
import { startTestQdrant, type TestQdrant } from '../../service/test-support/start-test-qdrant.js';
import { createQdrantPointStore } from '../../store/qdrant/qdrant-point-store.js';
import { createQdrantStoreAdmin } from '../../store/qdrant/qdrant-store-admin.js';
import type { StoreAdmin } from '../../store/store-admin.js';
import { type StoreHooks, withStoreHooks } from '../../store/test-support/with-store-hooks.js';
import type { MemoryStore } from '../../store/memory-store.js';

export interface DataToolStore {
  readonly qdrant: TestQdrant;
  readonly client: QdrantClient;
  /** A collection name unique to this run; it, and every collection named after it, is deleted by close. */
  uniqueCollection(prefix: string): string;
  admin(hooks?: StoreHooks): StoreAdmin;
  store(hooks?: StoreHooks): MemoryStore;
  close(): Promise<void>;
}

export async function startDataToolStore(): Promise<DataToolStore> {
  const qdrant = await startTestQdrant();
  const options = { url: qdrant.url, ...(qdrant.apiKey ? { apiKey: qdrant.apiKey } : {}) };
  const client = new QdrantClient({ ...options, checkCompatibility: false });
  const run = randomUUID().slice(0, 8);
  const names: string[] = [];
  return {
    qdrant,
    client,
    uniqueCollection(prefix) {
      const name = `${prefix}_${run}_${names.length}`;
      names.push(name);
      return name;
    },
    admin: (hooks = {}) => withStoreHooks(createQdrantStoreAdmin(options), hooks),
    store: (hooks = {}) => withStoreHooks(createQdrantPointStore(options), hooks),
    async close() {
      // Made from a unique name: the bot's collection, its parts, a reembed's target.
      for (const { name } of (await client.getCollections()).collections) {
        if (names.some((base) => name.startsWith(base))) await client.deleteCollection(name);
      }
      await qdrant.close();
    },
  };
}

/** Hooks under which `method` works `calls` times, then fails as a store that went away. */
export function failAfter(method: string, calls: number): StoreHooks {
  let seen = 0;
  return {
    beforeCall: (call) => {
      if (call.method !== method) return;
      seen += 1;
      if (seen > calls) {
        throw new StoreError('store_unavailable', `the store went away during ${method}`, {
          retryable: true,
        });
      }
    },
  };
}
