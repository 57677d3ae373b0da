/**
 * @module Validates a request against its wire schema once, failing as a 400 that names the field: the HTTP
 * routes (after reading the body) and the in-process MCP backend both parse through it, so a request
 * answers alike whichever face it came through.
 */
import type { z } from 'zod';
import { formatPath } from '../config/config-problems.js';
import { ValidationError } from '../errors/memory-pool-error.js';

/**
 * Formats a zod issue path as `messages[2].text`, the same way config keys are named; the root is `(body)`,
 * the field every other error about the body as a whole names (too large, too deep, not JSON).
 */
export function formatFieldPath(path: readonly PropertyKey[]): string {
  return formatPath(path, '(body)');
}

/** `value` as `schema` reads it; a ValidationError naming the first field that does not fit. */
export function parseWireRequest<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const field = formatFieldPath(issue.path);
    throw new ValidationError(field, `${field}: ${issue.message}`);
  }
  return result.data;
}
