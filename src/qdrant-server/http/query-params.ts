/**
 * @module Query parameters of writes and reads (qdrant-subset.md §0.5): `wait` decides the UpdateResult status;
 * `ordering`, `consistency` and `timeout` are validated like Qdrant and otherwise ignored (one node, one thread).
 */
import type { Context } from 'hono';
import { queryParamError, validationError } from '../qdrant-error.js';
import type { QdrantEnv } from './qdrant-env.js';

const ORDERINGS = ['weak', 'medium', 'strong'];
const CONSISTENCIES = ['majority', 'quorum', 'all'];

/** `timeout` (seconds, ≥ 1) of collection create and delete, also read by the other parsers here. */
export function parseTimeoutParam(c: Context<QdrantEnv>): void {
  const text = c.req.query('timeout');
  if (text === undefined) return;
  if (!/^\d+$/.test(text)) throw queryParamError('timeout: invalid digit found in string');
  if (Number(text) === 0) {
    throw validationError(
      [{ path: 'timeout', message: 'value 0 invalid, must be 1 or larger' }],
      'query parameters',
    );
  }
}

/** Parses the params of a write; returns whether the client waits for the result (default false). */
export function parseUpdateParams(c: Context<QdrantEnv>): { wait: boolean } {
  const wait = c.req.query('wait');
  // serde's bool accepts exactly these two spellings.
  if (wait !== undefined && wait !== 'true' && wait !== 'false') {
    throw queryParamError('provided string was not `true` or `false`');
  }
  const ordering = c.req.query('ordering');
  if (ordering !== undefined && !ORDERINGS.includes(ordering)) {
    throw queryParamError(
      `unknown variant \`${ordering}\`, expected one of \`weak\`, \`medium\`, \`strong\``,
    );
  }
  parseTimeoutParam(c);
  return { wait: wait === 'true' };
}

/** Validates the params of a read (`consistency`, `timeout`). */
export function parseReadParams(c: Context<QdrantEnv>): void {
  const consistency = c.req.query('consistency');
  // An empty value is ignored; otherwise a replica count or a named level.
  if (consistency && !/^\d+$/.test(consistency) && !CONSISTENCIES.includes(consistency)) {
    throw queryParamError(`data did not match any variant of untagged enum ReadConsistency`);
  }
  parseTimeoutParam(c);
}

/** `{operation_id, status}`: `completed` when the client waited, else `acknowledged`. */
export function formatUpdateResult(operationId: number, wait: boolean): Record<string, unknown> {
  return { operation_id: operationId, status: wait ? 'completed' : 'acknowledged' };
}
