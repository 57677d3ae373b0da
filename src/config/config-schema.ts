/**
 * @module The schema of memory-pool.yaml: every key, its default and its check, declared once. loadConfig
 * runs it after `${VAR}` interpolation and the environment overrides; nothing else applies defaults.
 */
import { z } from 'zod';
import type { StoreConfig } from './config-types.js';
import { apiKeySchema } from './api-key-schema.js';
import { botsSchema } from './bot-schema.js';
import { httpUrl, integer, section, secret, text, webOrigin } from './config-fields.js';
import { discordSchema } from './discord-schema.js';
import { embeddingSchema } from './embedding-schema.js';
import { journalSchema } from './journal-schema.js';

const PORT_FIX = 'Set a free TCP port.';

const listenSchema = section({
  /** Default 127.0.0.1 (env MEMORY_POOL_HOST). Anything beyond loopback requires apiKeys. */
  host: text('Set an address to listen on, e.g. 127.0.0.1, or 0.0.0.0 for every interface.').default(
    '127.0.0.1',
  ),
  /** Default 3102 (env MEMORY_POOL_PORT). */
  port: integer(1, 65_535, `${PORT_FIX} The default is 3102.`).default(3102),
});

/** The built-in Qdrant-compatible store: no Qdrant to install. */
const embeddedStoreSchema = section({
  /** Default ./data/qdrant, relative to the config file's folder. */
  path: text('Set the folder for the embedded store, e.g. ./data/qdrant.').default('./data/qdrant'),
  /** Default 127.0.0.1: where its Qdrant REST API listens (SillyTavern connects here). */
  host: text('Set an address, e.g. 127.0.0.1.').default('127.0.0.1'),
  /** Default 6333, Qdrant's own port, so SillyTavern's default URL works. */
  port: integer(1, 65_535, `${PORT_FIX} The default is 6333.`).default(6333),
  /** Optional (env QDRANT_API_KEY): the `api-key` header its REST API requires. */
  apiKey: secret(1, 'Set the api-key clients of the embedded store must send.').optional(),
  /**
   * Default []: without apiKey only loopback web origins (http://localhost:8000, any port) may call its API from
   * a browser, and only loopback Host names are served. List other origins here, e.g. http://st.home.arpa:8000.
   * With apiKey every origin may, as in Qdrant.
   */
  corsOrigins: z
    .array(webOrigin('Write each origin as scheme://host:port, e.g. http://192.168.1.5:8000.'), {
      error: 'expected a list of origins. Write each as "- http://host:port" under corsOrigins:',
    })
    .default([]),
});

/** A real Qdrant server (env QDRANT_URL switches to it). */
const qdrantStoreSchema = section({
  /** Required, e.g. http://127.0.0.1:6333 or a Qdrant Cloud URL. */
  url: httpUrl('Set the Qdrant URL, e.g. http://127.0.0.1:6333.'),
  /** Optional (env QDRANT_API_KEY). */
  apiKey: secret(1, 'Set the Qdrant API key, or remove apiKey.').optional(),
});

/** Default: the embedded store. Set exactly one of `embedded` and `qdrant`. */
const storeSchema = section({
  embedded: embeddedStoreSchema.optional(),
  qdrant: qdrantStoreSchema.optional(),
})
  .superRefine((store, ctx) => {
    if (store.embedded !== undefined && store.qdrant !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: 'both embedded and qdrant are set. Keep only the store you use',
      });
    }
  })
  .transform((store): StoreConfig => {
    if (store.qdrant !== undefined) return { kind: 'qdrant', ...store.qdrant };
    return { kind: 'embedded', ...(store.embedded ?? embeddedStoreSchema.parse({})) };
  });

const limitsSchema = section({
  /** Default 1048576 (1 MiB): larger request bodies are refused with 413. */
  maxBodyBytes: integer(1024, 1_073_741_824, 'Set a size in bytes, e.g. 1048576.').default(1_048_576),
  /** Default 500: messages accepted in one /save. */
  maxMessagesPerSave: integer(1, 100_000, 'Set a message count, e.g. 500.').default(500),
  /** Default 16000: characters accepted in one message's text. */
  maxTextChars: integer(1, 10_000_000, 'Set a character count, e.g. 16000.').default(16_000),
});

/** How `GET /ready` asks the store and the embedder: bounded, so a hung dependency answers fast as not ready. */
const readinessSchema = section({
  /** Default 2000: each check (store, embedder) waits at most this long before reporting the dependency as not ready. */
  timeoutMs: integer(100, 60_000, 'Set milliseconds, e.g. 2000.').default(2000),
  /** Default 5000: the embedder's last answer is reused this long, so a load balancer polling /ready costs no embedding calls; 0 asks every time. */
  embedderCacheMs: integer(0, 3_600_000, 'Set milliseconds, e.g. 5000, or 0 to probe on every call.').default(
    5000,
  ),
});

/** The bot used when the file has no `bots:` (and when there is no file). */
export const DEFAULT_BOTS = { default: { selfSpeaker: 'Assistant' } } as const;

export const configSchema = section({
  listen: listenSchema.prefault({}),
  store: storeSchema.prefault({}),
  /** Default: `{ provider: offline }`, a small English model shipped with the package. */
  embedding: embeddingSchema.prefault({ provider: 'offline' }),
  /** Default ./data/service (env MEMORY_POOL_DATA_DIR): the service's own journal and caches. */
  dataDir: text('Set a folder, e.g. ./data/service.').default('./data/service'),
  /** Optional: `postgres.url` (env MEMORY_POOL_POSTGRES_URL) names a shared Postgres journal; refused this release. */
  journal: journalSchema.optional(),
  /** Default []: no auth, loopback only. */
  apiKeys: z
    .array(apiKeySchema, { error: 'expected a list of keys. Write each as "- name: ..." under apiKeys:' })
    .default([]),
  limits: limitsSchema.prefault({}),
  readiness: readinessSchema.prefault({}),
  /** Default: one bot `default` speaking as Assistant. */
  bots: botsSchema.prefault(DEFAULT_BOTS),
  /** Optional: a Discord bot account `serve` connects to the pool (its recorder and /memory commands). */
  discord: discordSchema.optional(),
});

/** The configuration as the schema produces it, before relative paths are resolved. */
export type ParsedConfig = z.output<typeof configSchema>;
