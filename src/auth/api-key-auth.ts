/** @module API keys: who is calling (constant-time key match) and what that key may touch (bots, sources, operations). */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { ApiKeyConfig, Operation } from '../config/config-types.js';
import { AuthError } from '../errors/memory-pool-error.js';

/** The caller of one request. With no keys configured every caller is `open` (the service is loopback-only then). */
export type Principal = { readonly kind: 'open' } | { readonly kind: 'key'; readonly key: ApiKeyConfig };

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/** Matches presented keys against configured ones; hashing first makes the comparison length-independent. */
export function createKeyMatcher(keys: readonly ApiKeyConfig[]) {
  const hashed = keys.map((key) => ({ key, hash: digest(key.key) }));
  return (presented: string): ApiKeyConfig | undefined => {
    const candidate = digest(presented);
    let found: ApiKeyConfig | undefined;
    // Compare against every key, so timing does not reveal which one (or whether any) matched.
    for (const entry of hashed) {
      if (timingSafeEqual(entry.hash, candidate)) found = entry.key;
    }
    return found;
  };
}

/** `Bearer <key>`; the scheme is case-insensitive (RFC 9110 §11.1), so `bearer` and `BEARER` work too. */
const BEARER = /^bearer\s+(.*)$/is;

/** Reads the key from `Authorization: Bearer <key>` or `x-api-key`. */
export function readPresentedKey(headers: {
  get(name: string): string | null | undefined;
}): string | undefined {
  const bearer = BEARER.exec(headers.get('authorization') ?? '');
  if (bearer) return bearer[1]!.trim() || undefined;
  return headers.get('x-api-key')?.trim() || undefined;
}

/** Identifies the caller; throws 401 when keys are configured and none (or a wrong one) was sent. */
export function authenticate(
  keys: readonly ApiKeyConfig[],
  match: (presented: string) => ApiKeyConfig | undefined,
  presented: string | undefined,
): Principal {
  if (keys.length === 0) return { kind: 'open' };
  if (presented === undefined) {
    throw new AuthError(
      'unauthorized',
      'an API key is required: send `Authorization: Bearer <key>` or `x-api-key: <key>`',
    );
  }
  const key = match(presented);
  if (key === undefined) throw new AuthError('unauthorized', 'the API key is not valid');
  return { kind: 'key', key };
}

const allows = (list: readonly string[] | '*', value: string): boolean =>
  list === '*' || list.includes(value);

/** Throws 403 unless the principal may run `operation` on `bot` (and, when given, with `source`). */
export function authorize(
  principal: Principal,
  request: { operation: Operation; bot: string; source?: string },
): void {
  if (principal.kind === 'open') return;
  const { key } = principal;
  if (!key.scopes.includes(request.operation) && !key.scopes.includes('admin')) {
    throw new AuthError(
      'forbidden',
      `the API key "${key.name}" does not have the ${request.operation} scope`,
    );
  }
  if (!allows(key.bots, request.bot)) {
    throw new AuthError('forbidden', `the API key "${key.name}" may not use the bot "${request.bot}"`);
  }
  if (request.source !== undefined && !allows(key.sources, request.source)) {
    throw new AuthError(
      'forbidden',
      `the API key "${key.name}" may not act for the source "${request.source}"`,
    );
  }
}

/** The source a key writes as when the request names none. */
export function principalSource(principal: Principal): string | undefined {
  return principal.kind === 'key' ? principal.key.source : undefined;
}
