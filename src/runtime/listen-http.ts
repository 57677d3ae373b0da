/**
 * @module Start and stop of an HTTP server, shared by the service and the embedded store: listen on
 * `host:port` (0 picks a free port) and resolve once bound, and a stop that ends in bounded time however
 * busy the keep-alive connections are.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { formatHttpUrl } from './format-http-url.js';

export interface ListeningHttpServer {
  /** Base URL, e.g. `http://127.0.0.1:3102`. */
  readonly url: string;
  readonly port: number;
  /**
   * Stops accepting connections, answers what is in flight with `Connection: close`, and resolves once
   * every connection is closed: at the latest `closeGraceMs` after the call. Safe to call twice.
   */
  close(): Promise<void>;
}

export interface ListenHttpOptions {
  /**
   * How long a stop waits for requests in flight before it closes their connections (default 5 s: under
   * the 10 s an orchestrator usually gives before SIGKILL, so the journal and store still close cleanly).
   */
  readonly closeGraceMs?: number;
  /**
   * The body limit: a request sent with `Expect: 100-continue` whose declared Content-Length is over it gets
   * no `100 Continue`, so the client never uploads a body that will be refused; the app answers it (a 413)
   * at once. Unset: every such request is told to continue, as Node does by default.
   */
  readonly maxBodyBytes?: number;
}

const DEFAULT_CLOSE_GRACE_MS = 5_000;

/** Serves `fetch` (a Hono app's) on `host:port`; rejects when the port cannot be bound. */
export async function listenHttp(
  fetch: (request: Request) => Response | Promise<Response>,
  host: string,
  port: number,
  options: ListenHttpOptions = {},
): Promise<ListeningHttpServer> {
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const started = serve({ fetch, hostname: host, port }, () => resolve(started));
    started.once('error', reject);
  });
  const bound = (server.address() as AddressInfo).port;
  let stopping = false;
  // Once stopping, every answer closes its connection: a client sending back-to-back requests on a
  // keep-alive connection would otherwise never let it go idle, and server.close() would wait forever.
  // Node merges a header set here with those the adapter passes to writeHead.
  // A request in flight when the stop starts is answered with `Connection: close` too (close() marks it), and
  // each answer finished while stopping lets its connection go at once: without both, its keep-alive
  // connection stays open, and the stop waits the whole grace period for nothing.
  const inFlight = new Set<ServerResponse>();
  server.on('request', (_request, response: ServerResponse) => {
    if (stopping && !response.headersSent) response.setHeader('connection', 'close');
    inFlight.add(response);
    response.once('close', () => {
      inFlight.delete(response);
      // After Node has marked the socket idle again (same tick as 'close' it may not have yet).
      if (stopping && 'closeIdleConnections' in server) setImmediate(() => server.closeIdleConnections());
    });
  });
  const { maxBodyBytes } = options;
  if (maxBodyBytes !== undefined) {
    server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
      const declared = Number(request.headers['content-length']);
      const chunked = request.headers['transfer-encoding'] !== undefined;
      if (chunked || !(declared > maxBodyBytes)) response.writeContinue();
      server.emit('request', request, response);
    });
  }
  let closing: Promise<void> | undefined;
  return {
    url: formatHttpUrl(host, bound),
    port: bound,
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        stopping = true;
        for (const response of inFlight) {
          if (!response.headersSent) response.setHeader('connection', 'close');
        }
        const grace = setTimeout(() => {
          // What is still open after the grace period is cut: its request was never answered, so
          // nothing it sent was acknowledged.
          if ('closeAllConnections' in server) server.closeAllConnections();
        }, options.closeGraceMs ?? DEFAULT_CLOSE_GRACE_MS);
        server.close((error) => {
          clearTimeout(grace);
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
