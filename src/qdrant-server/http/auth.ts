/**
 * @module API-key auth as Qdrant does it (qdrant-subset.md §0.3): `api-key` header first, then `Authorization: Bearer`;
 * 401 with a plain-text body; the read-only key may only read. Keys are compared in constant time.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { forbidden } from '../qdrant-error.js';
import type { Access, QdrantEnv } from './qdrant-env.js';

export interface ApiKeys {
  /** Full access. Auth is on when either key is set. */
  readonly apiKey?: string | undefined;
  /** Read access only: writes answer 403. */
  readonly readOnlyApiKey?: string | undefined;
}

/** Hashing first makes both sides the same length, so timingSafeEqual leaks neither content nor length. */
function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

function keysEqual(given: string, expected: Buffer | undefined): boolean {
  return expected !== undefined && timingSafeEqual(digest(given), expected);
}

/** Qdrant's whitelist: the version route and the probes never need a key. */
function isPublicPath(path: string): boolean {
  return path === '/' || path === '/healthz' || path.startsWith('/readyz') || path.startsWith('/livez');
}

/** Reads the caller's key, sets `access`, or answers 401 before any route runs. */
export function authMiddleware(keys: ApiKeys): MiddlewareHandler<QdrantEnv> {
  const full = keys.apiKey ? digest(keys.apiKey) : undefined;
  const readOnly = keys.readOnlyApiKey ? digest(keys.readOnlyApiKey) : undefined;
  return async (c, next) => {
    if ((full === undefined && readOnly === undefined) || isPublicPath(c.req.path)) {
      c.set('access', 'full');
      return next();
    }
    const authorization = c.req.header('authorization');
    // A wrong `api-key` header is final: the bearer token is only read when `api-key` is absent.
    const given =
      c.req.header('api-key') ??
      (authorization?.startsWith('Bearer ') ? authorization.slice('Bearer '.length) : undefined);
    if (given === undefined) return c.text('Must provide an API key or an Authorization bearer token', 401);
    let access: Access;
    if (keysEqual(given, full)) access = 'full';
    else if (keysEqual(given, readOnly)) access = 'read';
    else return c.text('Invalid API key or JWT', 401);
    c.set('access', access);
    return next();
  };
}

/** Route middleware for writes: the read-only key gets Qdrant's 403 envelope. */
export const requireWriteAccess: MiddlewareHandler<QdrantEnv> = async (c: Context<QdrantEnv>, next) => {
  if (c.get('access') !== 'full') throw forbidden('Global manage access is required');
  await next();
};
