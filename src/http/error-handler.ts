/** @module Renders every error as `{ "error": { code, message, field? } }`: the one place errors become HTTP. */
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ErrorResponse } from '../wire/error-response.js';
import { isMemoryPoolError } from '../errors/memory-pool-error.js';
import { toJournalError } from '../journal/journal-health.js';
import type { Logger } from '../logging/logger.js';

/**
 * A 413 is sent before the oversized body is read; the server then discards what it can for a moment and drops
 * the connection, so the answer must say `Connection: close` or a keep-alive client's next request on that
 * socket fails with ECONNRESET.
 */
const CLOSE_AFTER_413 = { connection: 'close' } as const;

/** Builds Hono's onError handler. Unknown errors are logged and answered as 500 without internals. */
export function createErrorHandler(logger: Logger) {
  return (thrown: Error, c: Context): Response => {
    // The journal's writes are guarded where they happen; a read that hits a full or broken disk lands here.
    const error = toJournalError(thrown) ?? thrown;
    if (isMemoryPoolError(error)) {
      if (error.status >= 500) logger.warn({ code: error.code, err: error.message }, 'request failed');
      const body: ErrorResponse = {
        error: { code: error.code, message: error.message, ...(error.field ? { field: error.field } : {}) },
      };
      return c.json(
        body,
        error.status as ContentfulStatusCode,
        error.status === 413 ? CLOSE_AFTER_413 : undefined,
      );
    }
    if (error instanceof HTTPException && error.status === 413) {
      const body: ErrorResponse = {
        error: {
          code: 'body_too_large',
          message: 'the request body is too large; send fewer messages per call',
        },
      };
      return c.json(body, 413, CLOSE_AFTER_413);
    }
    logger.error({ err: error }, 'unexpected error');
    const body: ErrorResponse = {
      error: { code: 'internal', message: 'internal error; see the service log' },
    };
    return c.json(body, 500);
  };
}
