/**
 * @module The environment variables that override or fill in the file (a container or a one-off run sets
 * these instead of editing YAML), plus `keyEnv` for API keys. Applied before validation so one schema
 * checks every value, and each error names the variable the value came from.
 */
import { resolve } from 'node:path';
import type { ConfigProblem } from './config-problems.js';
import { readEnv } from '../runtime/read-env.js';

type Raw = Record<string, unknown>;

export interface EnvOverrides {
  readonly problems: ConfigProblem[];
  /** Key path → the variable that supplied it. */
  readonly origins: Map<string, string>;
}

function sectionOf(parent: Raw, key: string): Raw {
  const value = parent[key];
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Raw;
  // A malformed section is left to the schema to report; the override then lands on a fresh one.
  const fresh: Raw = {};
  parent[key] = fresh;
  return fresh;
}

/** Applies the environment to `raw` in place. */
export function applyEnvOverrides(raw: Raw, env: NodeJS.ProcessEnv, cwd: string, out: EnvOverrides): void {
  const set = (target: Raw, key: string, path: string, name: string, value: string) => {
    target[key] = value;
    out.origins.set(path, name);
  };
  const host = readEnv(env, 'MEMORY_POOL_HOST');
  if (host !== undefined) set(sectionOf(raw, 'listen'), 'host', 'listen.host', 'MEMORY_POOL_HOST', host);
  const port = readEnv(env, 'MEMORY_POOL_PORT');
  if (port !== undefined) set(sectionOf(raw, 'listen'), 'port', 'listen.port', 'MEMORY_POOL_PORT', port);
  const dataDir = readEnv(env, 'MEMORY_POOL_DATA_DIR');
  // Relative to where the command runs, as any path given on a command line would be.
  if (dataDir !== undefined) set(raw, 'dataDir', 'dataDir', 'MEMORY_POOL_DATA_DIR', resolve(cwd, dataDir));

  const postgresUrl = readEnv(env, 'MEMORY_POOL_POSTGRES_URL');
  if (postgresUrl !== undefined) {
    set(
      sectionOf(sectionOf(raw, 'journal'), 'postgres'),
      'url',
      'journal.postgres.url',
      'MEMORY_POOL_POSTGRES_URL',
      postgresUrl,
    );
  }
  applyStoreEnv(raw, env, set);
  applyEmbeddingKeyEnv(raw, env, set);
  applyKeyEnv(raw, env, out);
  applyDiscordTokenEnv(raw, env, set);
}

/** DISCORD_TOKEN fills `discord.token` when the file has a `discord:` section without one. */
function applyDiscordTokenEnv(raw: Raw, env: NodeJS.ProcessEnv, set: Setter): void {
  const discord = raw.discord;
  if (typeof discord !== 'object' || discord === null || Array.isArray(discord)) return;
  const token = readEnv(env, 'DISCORD_TOKEN');
  if (token !== undefined && (discord as Raw).token === undefined) {
    set(discord as Raw, 'token', 'discord.token', 'DISCORD_TOKEN', token);
  }
}

type Setter = (target: Raw, key: string, path: string, name: string, value: string) => void;

function applyStoreEnv(raw: Raw, env: NodeJS.ProcessEnv, set: Setter): void {
  const url = readEnv(env, 'QDRANT_URL');
  const apiKey = readEnv(env, 'QDRANT_API_KEY');
  if (url !== undefined) {
    const store = sectionOf(raw, 'store');
    const qdrant = sectionOf(store, 'qdrant');
    delete store.embedded;
    set(qdrant, 'url', 'store.qdrant.url', 'QDRANT_URL', url);
  }
  if (apiKey === undefined) return;
  const store = sectionOf(raw, 'store');
  // The key belongs to whichever store is in use: a real Qdrant's, or the one the embedded store demands.
  const kind = store.qdrant !== undefined ? 'qdrant' : 'embedded';
  set(sectionOf(store, kind), 'apiKey', `store.${kind}.apiKey`, 'QDRANT_API_KEY', apiKey);
}

function applyEmbeddingKeyEnv(raw: Raw, env: NodeJS.ProcessEnv, set: Setter): void {
  const embedding = raw.embedding;
  if (typeof embedding !== 'object' || embedding === null || Array.isArray(embedding)) return;
  const section = embedding as Raw;
  if (
    section.apiKey !== undefined ||
    !['openai-compatible', 'openai', 'openrouter'].includes(String(section.provider))
  ) {
    return;
  }
  const own = readEnv(env, 'MEMORY_POOL_EMBEDDING_API_KEY');
  // An OpenAI key is never sent to OpenRouter: it would hand a third party the user's OpenAI credential.
  const openai = section.provider === 'openrouter' ? undefined : readEnv(env, 'OPENAI_API_KEY');
  if (own !== undefined) set(section, 'apiKey', 'embedding.apiKey', 'MEMORY_POOL_EMBEDDING_API_KEY', own);
  else if (openai !== undefined) set(section, 'apiKey', 'embedding.apiKey', 'OPENAI_API_KEY', openai);
}

function applyKeyEnv(raw: Raw, env: NodeJS.ProcessEnv, out: EnvOverrides): void {
  if (!Array.isArray(raw.apiKeys)) return;
  raw.apiKeys.forEach((entry: unknown, index) => {
    if (typeof entry !== 'object' || entry === null) return;
    const apiKey = entry as Raw;
    // With both set, or a non-string name, the schema reports it.
    if (typeof apiKey.keyEnv !== 'string' || apiKey.key !== undefined) return;
    const value = readEnv(env, apiKey.keyEnv);
    if (value === undefined) {
      out.problems.push({
        path: `apiKeys[${index}].keyEnv`,
        message: `the environment variable ${apiKey.keyEnv} is not set. Set it to the key, or use key: instead`,
      });
      return;
    }
    out.origins.set(`apiKeys[${index}].key`, apiKey.keyEnv);
    apiKey.key = value;
    delete apiKey.keyEnv;
  });
}
