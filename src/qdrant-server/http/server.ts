/** @module Serves the embedded store's Qdrant-compatible API over HTTP (@hono/node-server) on top of an engine in `dataDir`. */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { formatHttpUrl } from '../../runtime/format-http-url.js';
import type { StoreLogger } from '../store-logger.js';
import { openStoreEngine } from '../engine/index.js';
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
  /** Stops accepting requests, waits for open ones, then closes the engine. */
  close(): Promise<void>;
}

/** Opens the engine and starts listening; resolves once the port is bound. */
export async function startQdrantServer(options: QdrantServerOptions): Promise<QdrantServer> {
  const host = options.host ?? '127.0.0.1';
  const engine = openStoreEngine({ dataDir: options.dataDir });
  let server: ReturnType<typeof serve>;
  try {
    // Inside the try: an invalid corsOrigins entry throws here, and the engine must then be closed.
    const app = createQdrantApp({
      engine,
      apiKey: options.apiKey,
      readOnlyApiKey: options.readOnlyApiKey,
      corsOrigins: options.corsOrigins,
      logger: options.logger,
    });
    server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
      const started = serve({ fetch: app.fetch, hostname: host, port: options.port ?? 6333 }, () =>
        resolve(started),
      );
      started.once('error', reject);
    });
  } catch (error) {
    engine.close();
    throw error;
  }
  const port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    url: formatHttpUrl(host, port),
    port,
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((error) => {
          engine.close();
          if (error) reject(error);
          else resolve();
        });
        // Idle keep-alive connections would otherwise hold close() open until they time out.
        if ('closeIdleConnections' in server) server.closeIdleConnections();
      });
      return closing;
    },
  };
}
