/** @module Reads and validates a JSON request body once, at the edge, failing as a 400 that names the field. */
import type { Context } from 'hono';
import type { z } from 'zod';
import { ValidationError } from '../errors/memory-pool-error.js';

/** Formats a zod issue path as `messages[2].text`. */
export function formatFieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out || '(body)';
}

/** Parses the body as JSON and validates it against `schema`; throws ValidationError naming the first bad field. */
export async function readJsonBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  const raw = await c.req.text();
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    throw new ValidationError(
      '(body)',
      `the request body is not valid JSON (${(error as Error).message}); send a JSON object with Content-Type: application/json`,
    );
  }
  const result = schema.safeParse(json);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const field = formatFieldPath(issue.path);
    throw new ValidationError(field, `${field}: ${issue.message}`);
  }
  return result.data;
}
