/**
 * @module Start and stop of an HTTP server, shared by the service and the embedded store: listen on
 * `host:port` (0 picks a free port) and resolve once bound, and a close that waits for open requests
 * without letting idle keep-alive connections hold it open.
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { formatHttpUrl } from './format-http-url.js';

export interface ListeningHttpServer {
  /** Base URL, e.g. `http://127.0.0.1:3102`. */
  readonly url: string;
  readonly port: number;
  /** Stops accepting connections and resolves once open requests are answered; safe to call twice. */
  close(): Promise<void>;
}

/** Serves `fetch` (a Hono app's) on `host:port`; rejects when the port cannot be bound. */
export async function listenHttp(
  fetch: (request: Request) => Response | Promise<Response>,
  host: string,
  port: number,
): Promise<ListeningHttpServer> {
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const started = serve({ fetch, hostname: host, port }, () => resolve(started));
    started.once('error', reject);
  });
  const bound = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    url: formatHttpUrl(host, bound),
    port: bound,
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Idle keep-alive connections would otherwise hold close() open until they time out.
        if ('closeIdleConnections' in server) server.closeIdleConnections();
      });
      return closing;
    },
  };
}
