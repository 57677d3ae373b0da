/** @module Collection-name rules for the `{collection_name}` path parameter (qdrant-subset.md §0.2), failing as 422. */
import type { Context } from 'hono';
import { validationError } from '../qdrant-error.js';
import type { QdrantEnv } from './qdrant-env.js';

/** Rejected on every route: they would break paths and storage. */
const ALWAYS_INVALID = ['/', '\0'];
/** Also rejected when creating a collection (names that some file systems cannot hold). */
const INVALID_ON_CREATE = ['<', '>', ':', '"', '/', '\\', '|', '?', '*', '\0', '\u001F'];

function reject(message: string): never {
  throw validationError([{ path: 'collection_name', message }], 'path parameters');
}

/** Checks a collection name; `forCreate` applies the stricter character set of `PUT /collections/{name}`. */
export function assertCollectionName(name: string, forCreate = false): string {
  // Qdrant counts characters, not bytes.
  const length = [...name].length;
  if (length < 1 || length > 255)
    reject(`value ${JSON.stringify(name)} invalid, length must be from 1 to 255`);
  const invalid = (forCreate ? INVALID_ON_CREATE : ALWAYS_INVALID).find((char) => name.includes(char));
  if (invalid !== undefined) reject(`collection name cannot contain "${invalid}" char`);
  return name;
}

/** The `:name` path parameter, validated. */
export function readCollectionName(c: Context<QdrantEnv>, forCreate = false): string {
  return assertCollectionName(c.req.param('name') ?? '', forCreate);
}
