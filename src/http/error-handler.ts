/** @module Renders every error as `{ "error": { code, message, field? } }`: the one place errors become HTTP. */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ErrorResponse } from '../wire/error-response.js';
import { type MemoryPoolError, NotFoundError } from '../errors/memory-pool-error.js';
import { toServiceFailure } from '../core/operations/to-service-failure.js';
import type { Logger } from '../logging/logger.js';

/**
 * A 413 is decided before the oversized body is read, so it is rendered saying `Connection: close`: were the
 * connection kept with the body unread, the body would be read as the next request. drainRefusedBody
 * (runtime/drain-refused-body.ts) reads the body to its end and then takes the header off again.
 */
const CLOSE_AFTER_413 = { connection: 'close' } as const;

/** The headers an error's facts call for: `Connection: close` after a 413, `Retry-After` when known. */
function headersFor(error: MemoryPoolError): Record<string, string> | undefined {
  const headers: Record<string, string> = error.status === 413 ? { ...CLOSE_AFTER_413 } : {};
  const retryAfterMs = (error as { retryAfterMs?: unknown }).retryAfterMs;
  // RFC 9110 §10.2.3: whole seconds; rounded up so a client never comes back early.
  if (typeof retryAfterMs === 'number') headers['retry-after'] = String(Math.ceil(retryAfterMs / 1000));
  return Object.keys(headers).length === 0 ? undefined : headers;
}

/** Answers one MemoryPoolError in the envelope, with its status and headers. */
export function renderError(c: Context, error: MemoryPoolError): Response {
  const body: ErrorResponse = {
    error: { code: error.code, message: error.message, ...(error.field ? { field: error.field } : {}) },
  };
  return c.json(body, error.status as ContentfulStatusCode, headersFor(error));
}

/** Hono's notFound handler: an unknown route is a 404 in the same envelope. */
export function renderNotFound(c: Context): Response {
  return renderError(
    c,
    new NotFoundError('not_found', `no route ${c.req.method} ${c.req.path}; see docs/api.md for the API`),
  );
}

/** Builds Hono's onError handler. Unknown errors are logged and answered as 500 without internals. */
export function createErrorHandler(logger: Logger) {
  return (thrown: Error, c: Context): Response => renderError(c, toServiceFailure(thrown, logger));
}
