/** @module Reads and validates a JSON request body once, at the edge, failing as a 400 that names the field. */
import type { Context } from 'hono';
import type { z } from 'zod';
import { MemoryPoolError, ValidationError } from '../errors/memory-pool-error.js';
import { isJsonMediaType } from './json-media-type.js';
import { findTooDeep } from '../runtime/find-too-deep.js';
import { formatFieldPath, parseWireRequest } from '../wire/parse-wire-request.js';

/** Deepest nesting a request body may have: the API's own bodies nest 4 levels; recursive code must never see 5,000. */
export const MAX_JSON_DEPTH = 64;

export { formatFieldPath };

/** Throws 415 unless the request says its body is JSON (see json-media-type.ts for why this matters). */
export function requireJsonContentType(contentType: string | undefined): void {
  if (isJsonMediaType(contentType)) return;
  throw new MemoryPoolError(
    'unsupported_media_type',
    `the request body must be JSON sent with Content-Type: application/json (got ${contentType === undefined ? 'no Content-Type' : `"${contentType}"`})`,
    { status: 415 },
  );
}

/** Throws 400 when `text` nests deeper than MAX_JSON_DEPTH. */
export function requireShallowJson(text: string): void {
  if (findTooDeep(text, MAX_JSON_DEPTH) >= 0) {
    throw new ValidationError(
      '(body)',
      `the request body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep; send the flat objects the API describes`,
    );
  }
}

/**
 * The body as text. A client that hangs up mid-upload makes the read fail; that is the client's doing, so it
 * is a 400 (which nobody may read), not a 500 logged as a bug and counted as a server error.
 */
export async function readBodyText(c: Context): Promise<string> {
  try {
    return await c.req.text();
  } catch (error) {
    throw new ValidationError(
      '(body)',
      `the request body could not be read to its end (${(error as Error).message}); the connection closed during the upload, send the whole body again`,
    );
  }
}

/**
 * Parses the body as JSON and validates it against `schema`; throws 415 for a body not declared JSON, and a
 * ValidationError for bad JSON, too deep JSON or the first field that does not fit.
 */
export async function readJsonBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  requireJsonContentType(c.req.header('content-type'));
  const raw = await readBodyText(c);
  requireShallowJson(raw);
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    throw new ValidationError(
      '(body)',
      `the request body is not valid JSON (${(error as Error).message}); send a JSON object with Content-Type: application/json`,
    );
  }
  return parseWireRequest(schema, json);
}
