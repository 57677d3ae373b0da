/** @module The official Qdrant client set up once, and the wrapper that turns its failures into StoreErrors. */
import { QdrantClient } from '@qdrant/js-client-rest';
import { toStoreError } from './store-error-mapping.js';

/** Where the Qdrant (real or embedded) is, for every client memory-pool creates. */
export interface QdrantPointStoreOptions {
  readonly url: string;
  readonly apiKey?: string;
  /** Per-request timeout in ms (default 10 s). */
  readonly timeoutMs?: number;
  /** Collections this client creates ask for their dense vectors on disk (Qdrant's `on_disk: true`). */
  readonly vectorsOnDisk?: boolean;
}

export interface QdrantAccess {
  readonly client: QdrantClient;
  /** Runs one client call; a failure becomes a StoreError saying `what` failed and whether to retry. */
  call<T>(what: string, run: () => Promise<T>): Promise<T>;
}

export function createQdrantAccess(options: QdrantPointStoreOptions, defaultTimeoutMs: number): QdrantAccess {
  const client = new QdrantClient({
    url: options.url,
    apiKey: options.apiKey,
    // The version check logs a console warning on mismatch; the service reports versions through /ready instead.
    checkCompatibility: false,
    timeout: options.timeoutMs ?? defaultTimeoutMs,
  });
  return {
    client,
    call: async (what, run) => {
      try {
        return await run();
      } catch (error) {
        throw toStoreError(what, options.url, error);
      }
    },
  };
}
