/** @module Qdrant's response envelope: `{result, status: "ok", time}` and `{status: {error}, time}` (qdrant-subset.md §0.1-0.2). */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { StoreLogger } from '../store-logger.js';
import { isQdrantError } from '../qdrant-error.js';
import { hasLongArray, sliceJson, streamPieces } from './json-slices.js';
import type { QdrantEnv } from './qdrant-env.js';

function elapsedSeconds(c: Context<QdrantEnv>): number {
  const startedAt = c.get('startedAt');
  return startedAt === undefined ? 0 : (performance.now() - startedAt) / 1000;
}

/**
 * Answers 200 with `result` in the success envelope. A result with a long array (a search with a huge `limit`)
 * is streamed in slices so serializing it never blocks the process for long; `time` then comes last, as always.
 */
export function respondResult(c: Context<QdrantEnv>, result: unknown): Response {
  if (!hasLongArray(result)) return c.json({ result, status: 'ok', time: elapsedSeconds(c) });
  function* pieces(): Generator<string> {
    yield '{"result":';
    yield* sliceJson(result);
    yield `,"status":"ok","time":${elapsedSeconds(c)}}`;
  }
  return c.body(streamPieces(pieces()), 200, { 'content-type': 'application/json' });
}

/**
 * Renders any thrown value as Qdrant's error envelope: a QdrantError with its own status and text,
 * anything else as 500 `Service internal error` (logged, since it is a bug or an I/O failure).
 */
export function respondError(c: Context<QdrantEnv>, error: unknown, logger?: StoreLogger): Response {
  if (isQdrantError(error)) {
    const time = error.extraction ? 0 : elapsedSeconds(c);
    return c.json({ status: { error: error.message }, time }, error.status as ContentfulStatusCode);
  }
  const message = error instanceof Error ? error.message : String(error);
  logger?.error({ err: error, method: c.req.method, path: c.req.path }, 'embedded store request failed');
  return c.json({ status: { error: `Service internal error: ${message}` }, time: elapsedSeconds(c) }, 500);
}
