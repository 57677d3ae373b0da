/**
 * @module Refuses request bodies over `limits.maxBodyBytes` with a 413. A chunked body (no Content-Length) is
 * read here to count it; a client that breaks off or garbles that upload is a 400, not a 500 logged as a bug.
 */
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { BodyTooLargeError, isMemoryPoolError, ValidationError } from '../errors/memory-pool-error.js';

/**
 * The body-limit middleware: a declared length is checked here, a chunked body is counted by hono's. Errors of
 * later handlers never reach the catch: Hono renders them at their own layer.
 */
export function limitBody(maxBytes: number): MiddlewareHandler {
  const limit = bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw new BodyTooLargeError(maxBytes);
    },
  });
  return async (c, next) => {
    // A declared length is checked from the headers, as hono's bodyLimit does, but without asking for
    // `raw.body`: that builds a web stream over the socket, so the route's read (its `text()`) would take the
    // slow path through it instead of @hono/node-server's direct read (~0.1 ms of each /save's CPU).
    const { method, headers } = c.req.raw;
    const declared = headers.get('content-length');
    if (method === 'GET' || method === 'HEAD') return next();
    if (declared !== null && !headers.has('transfer-encoding')) {
      if (Number.parseInt(declared, 10) > maxBytes) throw new BodyTooLargeError(maxBytes);
      return next();
    }
    try {
      await limit(c, next);
    } catch (error) {
      if (isMemoryPoolError(error)) throw error;
      throw new ValidationError(
        '(body)',
        `the request body could not be read to its end (${(error as Error).message}); send the whole body again`,
      );
    }
  };
}
