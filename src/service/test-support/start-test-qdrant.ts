/**
 * @module The Qdrant a store test talks to over REST: a real one when QDRANT_URL is set (with QDRANT_API_KEY),
 * otherwise the embedded store on a free port in a fresh temp dir. Here, in the composition root's
 * test-support, because only the composition root may start the embedded store.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startQdrantServer } from '../../qdrant-server/http/server.js';
import { readEnv } from '../../runtime/read-env.js';

export interface TestQdrant {
  readonly url: string;
  readonly apiKey?: string;
  readonly isEmbedded: boolean;
  close(): Promise<void>;
}

export async function startTestQdrant(): Promise<TestQdrant> {
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
  const server = await startQdrantServer({ dataDir, host: '127.0.0.1', port: 0 });
  return {
    url: server.url.replace(/\/+$/, ''),
    isEmbedded: true,
    async close() {
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
