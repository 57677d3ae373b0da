/** @module Serves the embedded store's Qdrant-compatible API over HTTP (@hono/node-server) on top of an engine in `dataDir`. */
import { type ListeningHttpServer, listenHttp } from '../../runtime/listen-http.js';
import type { StoreLogger } from '../store-logger.js';
import { openStoreEngine } from '../engine/index.js';
import { findDenseCosines, type DenseCosinesRequest } from './posted-dense-cosines.js';
import { findHeldDimensions, type HeldTermsRequest } from './posted-held-terms.js';
import { type PointReadRequest, runPointRead } from './posted-reads.js';
import { applyUpsertBatch, type UpsertBatch } from './posted-upsert.js';
import { createQdrantApp } from './qdrant-app.js';

export interface QdrantServerOptions {
  /** Folder of the store's SQLite file; created if missing. */
  readonly dataDir: string;
  /** Interface to bind; default 127.0.0.1 (loopback only). */
  readonly host?: string;
  /** TCP port; default 6333, Qdrant's. 0 picks any free port. */
  readonly port?: number;
  /** Full-access key; when this or `readOnlyApiKey` is set, requests need a key. */
  readonly apiKey?: string | undefined;
  /** Key that may only read. */
  readonly readOnlyApiKey?: string | undefined;
  /** Without a key, extra web origins allowed besides loopback ones (see QdrantAppOptions). */
  readonly corsOrigins?: readonly string[] | undefined;
  readonly logger?: StoreLogger | undefined;
}

export interface QdrantServer {
  /** Base URL, e.g. `http://127.0.0.1:6333`. */
  readonly url: string;
  readonly port: number;
  /**
   * Upserts without REST, for a caller in this process: as `PUT /collections/{name}/points?wait=true`, resolved
   * once committed, rejected with the error (`status`, Qdrant's message) that route would answer with. The
   * batch's vectors may be transferred (a store on another thread takes their buffers). When `signal` aborts
   * before the store has begun the batch (a store on another thread queues them), it is dropped and this
   * rejects with an `AbortError`; begun, it finishes and answers as usual. This one applies on the call.
   */
  upsert(collection: string, batch: UpsertBatch, signal?: AbortSignal): Promise<void>;
  /** Which of the request's sparse dimensions some point within its filter holds (posted-held-terms.ts). */
  heldTerms(collection: string, request: HeldTermsRequest): Promise<number[]>;
  /** The query's cosine with each point's dense vector, as `[id, cosine]` (posted-dense-cosines.ts). */
  denseCosines(collection: string, request: DenseCosinesRequest): Promise<[string, number][]>;
  /** A point read (retrieve, search, query, count) without REST: the `result` its route answers (posted-reads.ts). */
  read(collection: string, request: PointReadRequest): Promise<unknown>;
  /** Stops accepting requests, waits for open ones, then closes the engine. */
  close(): Promise<void>;
}

/** Opens the engine and starts listening; resolves once the port is bound. */
export async function startQdrantServer(options: QdrantServerOptions): Promise<QdrantServer> {
  const host = options.host ?? '127.0.0.1';
  const engine = openStoreEngine({ dataDir: options.dataDir });
  let server: ListeningHttpServer;
  try {
    // Inside the try: an invalid corsOrigins entry throws here, and the engine must then be closed.
    const app = createQdrantApp({
      engine,
      apiKey: options.apiKey,
      readOnlyApiKey: options.readOnlyApiKey,
      corsOrigins: options.corsOrigins,
      logger: options.logger,
    });
    server = await listenHttp(app.fetch, host, options.port ?? 6333);
  } catch (error) {
    engine.close();
    throw error;
  }
  let closing: Promise<void> | undefined;
  return {
    url: server.url,
    port: server.port,
    upsert: async (collection, batch) => applyUpsertBatch(engine, collection, batch, options.logger),
    heldTerms: async (collection, request) => findHeldDimensions(engine, collection, request, options.logger),
    denseCosines: async (collection, request) =>
      findDenseCosines(engine, collection, request, options.logger),
    read: (collection, request) => runPointRead(engine, collection, request, options.logger),
    close() {
      closing ??= server.close().finally(() => engine.close());
      return closing;
    },
  };
}
