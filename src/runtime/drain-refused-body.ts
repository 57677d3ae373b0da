/**
 * @module Reads and discards the body of a request refused as too large (413), so a keep-alive client still
 * uploading it reads the answer and keeps its connection instead of meeting a reset.
 */
import type { IncomingMessage } from 'node:http';
import type { MiddlewareHandler } from 'hono';
import { DRAIN_TIMEOUT_MS } from './drain-unread-body.js';

/**
 * The most of a refused body discarded: past it the answer says `Connection: close` and the upload is cut
 * (a client sending gigabytes is not worth reading).
 */
export const DRAIN_REFUSED_MAX_BYTES = 16 * 1024 * 1024;

/** Requests whose refused body a handler already read within the drain's bounds (see noteRefusedBodyDrained). */
const alreadyDrained = new WeakSet<Request>();

/**
 * Records that the handler refusing `request` has already read and dropped its body within the drain's bounds
 * (the body limit counts a chunked body as it reads it): drainRefusedBody then does not wait for it a second
 * time, which held a stalled client for twice the drain's timeout.
 */
export function noteRefusedBodyDrained(request: Request): void {
  alreadyDrained.add(request);
}

/**
 * The middleware; place it before the body limit, so it sees the 413 the limit's error becomes. The 413 is
 * sent before the body is read: without this, the server closes the connection (`Connection: close`)
 * while the client is still writing, and the client's next write meets a reset (EPIPE, ECONNRESET).
 * Once the body is read to its end the answer keeps the connection.
 */
export function drainRefusedBody(
  maxBytes = DRAIN_REFUSED_MAX_BYTES,
  timeoutMs = DRAIN_TIMEOUT_MS,
): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (c.res.status !== 413) return;
    // @hono/node-server passes the Node request as `env.incoming`; elsewhere (app.request) there is no socket.
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    if (incoming === undefined) return;
    // Drained before: kept when it ended, else the 413's `Connection: close` cuts the rest of the upload.
    // A declared length past the drain's bound would be cut anyway: cut it now, not after a stall's timeout.
    const declared = Number(incoming.headers['content-length']);
    if (incoming.headers['transfer-encoding'] === undefined && declared > maxBytes) return;
    // Refused before `100 Continue` (listenHttp's maxBodyBytes): the client sends no body to drain.
    const expected = /^100-continue$/i.test(incoming.headers.expect ?? '');
    if (expected && incoming.headers['transfer-encoding'] === undefined && !incoming.complete) return;
    if (alreadyDrained.has(c.req.raw)) {
      if (incoming.complete) c.res.headers.delete('connection');
      return;
    }
    if (await discardIncoming(incoming, maxBytes, timeoutMs)) c.res.headers.delete('connection');
  };
}

/** Reads and drops the rest of a body (a chunked one may be half read); true once it ended within the bounds. */
function discardIncoming(incoming: IncomingMessage, maxBytes: number, timeoutMs: number): Promise<boolean> {
  if (incoming.complete) return Promise.resolve(true);
  if (incoming.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    let bytes = 0;
    const finish = (whole: boolean) => {
      clearTimeout(timer);
      incoming.off('data', count).off('end', ended).off('error', failed);
      if (!whole) incoming.pause();
      resolve(whole);
    };
    const count = (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > maxBytes) finish(false);
    };
    const ended = () => finish(true);
    const failed = () => finish(false);
    const timer = setTimeout(() => finish(false), timeoutMs);
    incoming.on('data', count).once('end', ended).once('error', failed);
    incoming.resume();
  });
}
