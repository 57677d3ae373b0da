/**
 * @module Refuses request bodies over `limits.maxBodyBytes` with a 413. A chunked body (no Content-Length) is
 * read here to count it; a client that breaks off or garbles that upload is a 400, not a 500 logged as a bug.
 */
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { BodyTooLargeError, isMemoryPoolError, ValidationError } from '../errors/memory-pool-error.js';

/** The body-limit middleware. Errors of later handlers never reach the catch: Hono renders them at their own layer. */
export function limitBody(maxBytes: number): MiddlewareHandler {
  const limit = bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw new BodyTooLargeError(maxBytes);
    },
  });
  return async (c, next) => {
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
