/** @module Reads a request's JSON body the way actix's JSON extractor does: content type, 32 MB limit, nesting limit, parse (qdrant-subset.md §0.2). */
import type { Context } from 'hono';
import { formatError, QdrantError } from '../qdrant-error.js';
import { findTooDeep } from './json-depth.js';
import type { QdrantEnv } from './qdrant-env.js';

/** `service.max_request_size_mb` default: 32 MB. */
export const MAX_BODY_BYTES = 32 * 1024 * 1024;

/** actix accepts `application/json` and any `+json` subtype, with parameters such as charset. */
function isJsonContentType(header: string | undefined): boolean {
  if (header === undefined) return false;
  const mime = header.split(';')[0]!.trim().toLowerCase();
  const subtype = mime.split('/')[1] ?? '';
  return subtype === 'json' || subtype.endsWith('+json');
}

function tooLarge(length: number): QdrantError {
  return new QdrantError(
    400,
    `JSON payload (${length} bytes) is larger than allowed (limit: ${MAX_BODY_BYTES} bytes).`,
    true,
  );
}

async function readLimitedText(request: Request): Promise<string> {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (declared > MAX_BODY_BYTES) throw tooLarge(declared);
  if (request.body === null) return '';
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
    total += chunk.byteLength;
    // A chunked upload has no Content-Length, so the limit is enforced while reading too.
    if (total > MAX_BODY_BYTES) throw tooLarge(total);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Line and column (1-based, serde style) of a character offset. */
function locate(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - (before.lastIndexOf('\n') + 1) + 1;
  return `line ${line} column ${column}`;
}

/** serde_json-like text for a JSON.parse failure; the position comes from V8's message when it gives one. */
function describeSyntaxError(text: string, error: Error): string {
  if (text === '') return 'EOF while parsing a value at line 1 column 0';
  if (/end of JSON input|Unterminated/i.test(error.message)) {
    return `EOF while parsing a value at ${locate(text, text.length)}`;
  }
  const position = /position (\d+)/.exec(error.message);
  const where = position ? ` at ${locate(text, Number(position[1]))}` : '';
  return `${error.message.replace(/ in JSON at position \d+.*$/, '')}${where}`;
}

/** Parses the body as JSON, or throws the 400 Qdrant gives (content type, size, syntax). */
export async function readJsonBody(c: Context<QdrantEnv>): Promise<unknown> {
  if (!isJsonContentType(c.req.header('content-type'))) {
    throw new QdrantError(400, 'Content type error', true);
  }
  const text = await readLimitedText(c.req.raw);
  const tooDeep = findTooDeep(text);
  // serde_json's own words and position (the opening bracket), as Qdrant answers.
  if (tooDeep >= 0) throw formatError(`recursion limit exceeded at ${locate(text, tooDeep)}`);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw formatError(describeSyntaxError(text, error as Error));
  }
}
