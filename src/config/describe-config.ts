/**
 * @module A loggable view of the configuration for start-up logs and `memory-pool doctor`: the same
 * shape as MemoryPoolConfig, with every secret that is set replaced by `[set]` (an unset one is null).
 */
import type { MemoryPoolConfig } from './config-types.js';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** What stands in for a secret that is present. */
export const SECRET_SET = '[set]';

/** The config as plain JSON with API keys hidden and passwords in URLs masked. */
export function describeConfig(config: MemoryPoolConfig): { [key: string]: JsonValue } {
  const { store, embedding } = config;
  return toJson({
    ...config,
    store: {
      ...store,
      apiKey: hide(store.apiKey),
      ...(store.kind === 'qdrant' ? { url: maskUrl(store.url) } : {}),
    },
    embedding:
      embedding.provider === 'openai-compatible'
        ? { ...embedding, baseUrl: maskUrl(embedding.baseUrl), apiKey: hide(embedding.apiKey) }
        : embedding,
    ...(config.journal?.postgres === undefined
      ? {}
      : { journal: { postgres: { url: maskUrl(config.journal.postgres.url) } } }),
    apiKeys: config.apiKeys.map((apiKey) => ({ ...apiKey, key: SECRET_SET })),
    ...(config.discord === undefined ? {} : { discord: describeDiscord(config.discord) }),
  }) as { [key: string]: JsonValue };
}

function describeDiscord(discord: NonNullable<MemoryPoolConfig['discord']>) {
  const { companion } = discord;
  return {
    ...discord,
    token: SECRET_SET,
    ...(companion === undefined
      ? {}
      : { companion: { ...companion, baseUrl: maskUrl(companion.baseUrl), apiKey: hide(companion.apiKey) } }),
  };
}

// A missing key is worth seeing too ("why does Qdrant refuse me?"), so it shows as null, not absent.
function hide(secret: string | undefined): string | null {
  return secret === undefined ? null : SECRET_SET;
}

/**
 * The URL with its password (and secret-looking query values) replaced by `[set]`; a user name stays, as it is
 * no secret and tells which role connects (postgres://memory@host/db shows as written). Read from the parsed
 * URL, not a pattern: a raw @ or # in a password must not leave part of it in sight.
 */
export function maskUrl(url: string): string {
  if (!URL.canParse(url)) return SECRET_SET;
  const parsed = new URL(url);
  const user = parsed.username;
  const hadPassword = parsed.password !== '';
  parsed.username = '';
  parsed.password = '';
  parsed.hash = '';
  for (const key of [...parsed.searchParams.keys()]) {
    if (/pass|secret|token|key/i.test(key)) parsed.searchParams.set(key, SECRET_SET);
  }
  // The parser adds a "/" path to https://host; the URL as written had none.
  const path = parsed.pathname === '/' && !url.split(/[?#]/)[0]!.endsWith('/') ? '' : parsed.pathname;
  const credentials = user === '' && !hadPassword ? '' : `${user}${hadPassword ? `:${SECRET_SET}` : ''}@`;
  return `${parsed.protocol}//${credentials}${parsed.host}${path}${parsed.search}`;
}

function toJson(value: unknown): JsonValue {
  if (value === undefined || value === null) return null;
  if (Array.isArray(value)) return value.map(toJson);
  if (typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, toJson(item)]));
  }
  return value as JsonValue;
}
