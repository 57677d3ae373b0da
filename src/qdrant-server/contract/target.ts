/**
 * @module Opens the Qdrant-compatible server the contract suite runs against: a real Qdrant when
 * `QDRANT_URL` is set, otherwise the embedded store on a free port in a fresh temp dir.
 * Against a real Qdrant: `QDRANT_URL=http://localhost:6333 [QDRANT_API_KEY=…] [QDRANT_READ_ONLY_API_KEY=…]
 * node --import tsx --test src/qdrant-server/contract/*.test.ts` (durability and keyless auth tests then skip).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QdrantClient } from '@qdrant/js-client-rest';
import { readEnv as readEnvFrom } from '../../runtime/read-env.js';
import { startQdrantServer } from '../http/server.js';
import { sendHttp, type HttpReply } from './send-http.js';

/** Keys to start the embedded store with; on a real Qdrant they must match its configuration. */
export interface TargetOptions {
  readonly apiKey?: string;
  readonly readOnlyApiKey?: string;
}

/** One server under test, with the helpers every suite uses. */
export interface ContractTarget {
  readonly url: string;
  readonly apiKey?: string;
  readonly readOnlyApiKey?: string;
  /** qdrant-js client configured with the target's key. */
  readonly client: QdrantClient;
  readonly isEmbedded: boolean;
  /** Raw request as a browser would send it; adds `api-key` unless `headers` sets its own auth header. */
  http(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<HttpReply>;
  /** A collection name no other run uses; collections named this way are deleted by `close()`. */
  uniqueCollection(prefix: string): string;
  close(): Promise<void>;
}

/** Reads an env var, treating an empty string as unset. */
const readEnv = (name: string): string | undefined => readEnvFrom(process.env, name);

/** Whether the suite runs against a real Qdrant (so embedded-only tests skip). */
export function isRealQdrant(): boolean {
  return readEnv('QDRANT_URL') !== undefined;
}

/** Opens the target; call `close()` in an `after` hook. */
export async function openTarget(options: TargetOptions = {}): Promise<ContractTarget> {
  const realUrl = readEnv('QDRANT_URL');
  let url: string;
  let apiKey: string | undefined;
  let readOnlyApiKey: string | undefined;
  let shutdown: () => Promise<void>;
  if (realUrl !== undefined) {
    url = realUrl.replace(/\/+$/, '');
    apiKey = readEnv('QDRANT_API_KEY');
    readOnlyApiKey = readEnv('QDRANT_READ_ONLY_API_KEY');
    shutdown = async () => {};
  } else {
    const dataDir = await mkdtemp(join(tmpdir(), 'mp-contract-'));
    const server = await startQdrantServer({ dataDir, host: '127.0.0.1', port: 0, ...options });
    url = server.url.replace(/\/+$/, '');
    apiKey = options.apiKey;
    readOnlyApiKey = options.readOnlyApiKey;
    shutdown = async () => {
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    };
  }
  const client = new QdrantClient({ url, checkCompatibility: false, ...(apiKey ? { apiKey } : {}) });
  const runId = Math.random().toString(36).slice(2, 8);
  const created = new Set<string>();
  let counter = 0;

  const http: ContractTarget['http'] = (method, path, body, headers = {}) => {
    const hasAuth = Object.keys(headers).some((h) => ['api-key', 'authorization'].includes(h.toLowerCase()));
    const auth: Record<string, string> = apiKey && !hasAuth ? { 'api-key': apiKey } : {};
    return sendHttp(url, method, path, body, { ...auth, ...headers });
  };

  return {
    url,
    ...(apiKey ? { apiKey } : {}),
    ...(readOnlyApiKey ? { readOnlyApiKey } : {}),
    client,
    isEmbedded: realUrl === undefined,
    http,
    uniqueCollection(prefix) {
      counter += 1;
      const name = `${prefix}_${runId}_${counter}`;
      created.add(name);
      return name;
    },
    async close() {
      // Best effort: a failed delete must not hide the test result that matters.
      await Promise.all(
        [...created].map((name) =>
          http('DELETE', `/collections/${encodeURIComponent(name)}`).catch(() => {}),
        ),
      );
      await shutdown();
    },
  };
}
