/**
 * @module The Qdrant a store test talks to over REST: a real one when QDRANT_URL is set (with QDRANT_API_KEY),
 * otherwise the embedded store on a free port in a fresh temp dir. Here, in the composition root's
 * test-support, because only the composition root may start the embedded store.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type QdrantServer, startQdrantServer } from '../../qdrant-server/http/server.js';
import { startStoreThread } from '../../qdrant-server/thread/start-store-thread.js';
import { readEnv } from '../../runtime/read-env.js';

export interface TestQdrant {
  readonly url: string;
  readonly apiKey?: string;
  readonly isEmbedded: boolean;
  /** The embedded store itself, whose `upsert` takes posted batches (undefined for a real Qdrant). */
  readonly server?: QdrantServer;
  close(): Promise<void>;
}

/** `onThread`: the embedded store on its own thread, as `memory-pool serve` runs it. */
export async function startTestQdrant(options: { onThread?: boolean } = {}): Promise<TestQdrant> {
  const realUrl = readEnv(process.env, 'QDRANT_URL');
  if (realUrl !== undefined) {
    const apiKey = readEnv(process.env, 'QDRANT_API_KEY');
    return {
      url: realUrl.replace(/\/+$/, ''),
      ...(apiKey ? { apiKey } : {}),
      isEmbedded: false,
      close: async () => {},
    };
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'mp-store-'));
  const start = options.onThread === true ? startStoreThread : startQdrantServer;
  const server = await start({ dataDir, host: '127.0.0.1', port: 0 });
  return {
    url: server.url.replace(/\/+$/, ''),
    isEmbedded: true,
    server,
    async close() {
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
