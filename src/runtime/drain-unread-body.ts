/**
 * @module Reads to its end a request body that an early answer (401, 403, 415, 404) left unread, before the
 * answer goes out, so the connection stays usable for the client's next request.
 */
import type { MiddlewareHandler } from 'hono';

/**
 * The drain middleware; place it after the body limit, so a body it reads is counted like any other. Without
 * it, @hono/node-server drains an unread body only for 500 ms after answering and then closes the connection
 * (a connection the answer did not say `Connection: close` for), so a client still uploading got a reset.
 * A 413 is left alone: it says `Connection: close` and its body is not worth reading.
 */
export function drainUnreadBody(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const body = c.req.raw.body;
    if (body === null || c.req.raw.bodyUsed || body.locked || c.res.status === 413) return;
    try {
      const reader = body.getReader();
      for (;;) if ((await reader.read()).done) break;
    } catch {
      // The client broke off or sent too much: there is no next request on this connection to keep.
    }
  };
}
