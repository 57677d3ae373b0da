/**
 * @module Reads to its end a request body that an early answer (401, 403, 415, 404) left unread, before the
 * answer goes out, so the connection stays usable for the client's next request.
 */
import type { MiddlewareHandler } from 'hono';

/** How long an unread body may take to arrive before the answer goes out with `Connection: close` instead. */
export const DRAIN_TIMEOUT_MS = 5_000;

/**
 * The drain middleware; place it after the body limit, so a body it reads is counted like any other. Without
 * it, @hono/node-server drains an unread body only for 500 ms after answering and then closes the connection
 * (a connection the answer did not say `Connection: close` for), so a client still uploading got a reset.
 * A 413 is left alone: it says `Connection: close` and its body is not worth reading. A client that stalls
 * mid-body gets the answer after `timeoutMs`, saying `Connection: close`, rather than at Node's request
 * timeout (300 s).
 */
export function drainUnreadBody(timeoutMs = DRAIN_TIMEOUT_MS): MiddlewareHandler {
  return async (c, next) => {
    await next();
    // Before `body` is touched: reading it makes @hono/node-server build a full Request, which its fast path
    // for requests without a body (every GET) otherwise avoids.
    const { method, headers } = c.req.raw;
    if (method === 'GET' || method === 'HEAD') return;
    if (!headers.has('content-length') && !headers.has('transfer-encoding')) return;
    // `bodyUsed` first: a body the route read directly would otherwise get a new, empty stream built for it.
    if (c.req.raw.bodyUsed || c.res.status === 413) return;
    const body = c.req.raw.body;
    if (body === null || body.locked) return;
    const reader = body.getReader();
    const drained = (async () => {
      try {
        for (;;) if ((await reader.read()).done) return true;
      } catch {
        // The client broke off or sent too much: there is no next request on this connection to keep.
        return true;
      }
    })();
    let timer: NodeJS.Timeout | undefined;
    const stalled = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    const done = await Promise.race([drained, stalled]);
    clearTimeout(timer);
    // The rest of the body would be read as the next request: Node ends the connection after this answer.
    if (!done) c.header('Connection', 'close');
  };
}
