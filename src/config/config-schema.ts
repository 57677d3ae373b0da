/**
 * @module The schema of memory-pool.yaml: every key, its default and its check, declared once. loadConfig
 * runs it after `${VAR}` interpolation and the environment overrides; nothing else applies defaults.
 */
import { z } from 'zod';
import { apiKeySchema } from './api-key-schema.js';
import { botsSchema } from './bot-schema.js';
import { httpUrl, integer, secret, section, text, webOrigin } from './config-fields.js';
import type { StoreConfig } from './config-types.js';
import { discordSchema } from './discord-schema.js';
import { embeddingSchema } from './embedding-schema.js';
import { journalSchema } from './journal-schema.js';
import { peopleSchema } from './people-schema.js';

const PORT_FIX = 'Set a free TCP port.';

const listenSchema = section({
  /** Address of the HTTP API. Beyond loopback requires `apiKeys`. */
  host: text('Set an address to listen on, e.g. 127.0.0.1, or 0.0.0.0 for every interface.').default(
    '127.0.0.1',
  ),
  /** Port of the HTTP API, 1-65535. */
  port: integer(1, 65_535, `${PORT_FIX} The default is 3102.`).default(3102),
});

/** The built-in Qdrant-compatible store: no Qdrant to install. */
const embeddedStoreSchema = section({
  /**
   * Data folder of the built-in Qdrant-compatible store (the default store). Relative to the config file's
   * folder.
   */
  path: text('Set the folder for the embedded store, e.g. ./data/qdrant.').default('./data/qdrant'),
  /** Where its Qdrant REST API listens (SillyTavern connects here). Beyond loopback requires `apiKeys`. */
  host: text('Set an address, e.g. 127.0.0.1.').default('127.0.0.1'),
  /** Its port: Qdrant's own, so SillyTavern's default URL works. */
  port: integer(1, 65_535, `${PORT_FIX} The default is 6333.`).default(6333),
  /** The `api-key` header clients of that API must send. */
  apiKey: secret(1, 'Set the api-key clients of the embedded store must send.').optional(),
  /**
   * Without `apiKey`, the web origins besides loopback ones (`http://localhost:8000`, any port) whose pages
   * may call that API from a browser, e.g. `[http://192.168.1.5:8000]`. Without `apiKey` a foreign origin,
   * `Origin: null` and a non-loopback `Host` (DNS rebinding) get 403. With `apiKey` every origin may, as in
   * Qdrant.
   */
  corsOrigins: z
    .array(webOrigin('Write each origin as scheme://host:port, e.g. http://192.168.1.5:8000.'), {
      error: 'expected a list of origins. Write each as "- http://host:port" under corsOrigins:',
    })
    .default([]),
  /**
   * `true`: collections memory-pool creates in this store keep their vectors' f32 values on disk (Qdrant's
   * `on_disk: true`), not in RAM: about 2 KB less RAM per 512-d vector, answers unchanged, each search reading
   * its best candidates' vectors back from the data folder. Off by default: a search that cannot use the graph
   * (a small collection, a filtered or time-window search, `exact: true`) reads thousands of rows and is 10-40x
   * slower (docs/growth.md). Existing collections keep their setting: switch one with `PATCH /collections/NAME`.
   */
  vectorsOnDisk: z
    .boolean({ error: 'expected true or false. Set vectorsOnDisk: true to keep new collections’ vectors on disk' })
    .default(false),
});

/** A real Qdrant server (env QDRANT_URL switches to it). */
const qdrantStoreSchema = section({
  /**
   * A real Qdrant (http or https). Set `store.qdrant` or `store.embedded`, not both. E.g.
   * http://127.0.0.1:6333 or a Qdrant Cloud URL.
   * @default required
   */
  url: httpUrl('Set the Qdrant URL, e.g. http://127.0.0.1:6333.'),
  /** Its API key. */
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
  /** Larger request bodies are refused (1 MiB by default) with 413. */
  maxBodyBytes: integer(1024, 1_073_741_824, 'Set a size in bytes, e.g. 1048576.').default(1_048_576),
  /** Messages per `/save`. */
  maxMessagesPerSave: integer(1, 100_000, 'Set a message count, e.g. 500.').default(500),
  /** Characters per message. */
  maxTextChars: integer(1, 10_000_000, 'Set a character count, e.g. 16000.').default(16_000),
});

/** How `GET /ready` asks the store and the embedder: bounded, so a hung dependency answers fast as not ready. */
const readinessSchema = section({
  /**
   * How long `GET /ready` waits for each check (store, embedder, journal) before it counts that one as not
   * ready, 100-60000.
   */
  timeoutMs: integer(100, 60_000, 'Set milliseconds, e.g. 2000.').default(2000),
  /**
   * How long the embedder's last readiness answer is reused, so polling `/ready` costs no embedding calls;
   * `0` asks every time.
   */
  embedderCacheMs: integer(0, 3_600_000, 'Set milliseconds, e.g. 5000, or 0 to probe on every call.').default(
    5000,
  ),
});

/** The bot used when the file has no `bots:` (and when there is no file). */
export const DEFAULT_BOTS = { default: { selfSpeaker: 'Assistant' } } as const;

export const configSchema = section({
  listen: listenSchema.prefault({}),
  store: storeSchema.prefault({}),
  /**
   * A small English model shipped with the package when the section is absent.
   * @default `{ provider: offline }`
   */
  embedding: embeddingSchema.prefault({ provider: 'offline' }),
  /** The service's own journal and caches. */
  dataDir: text('Set a folder, e.g. ./data/service.').default('./data/service'),
  /**
   * `postgres.url` (env MEMORY_POOL_POSTGRES_URL) puts the journal in Postgres, shared by several replicas.
   * @default none: the journal is SQLite under `dataDir`
   */
  journal: journalSchema.optional(),
  /**
   * Clients' keys. Empty: no auth, loopback only.
   * @default `[]`
   */
  apiKeys: z
    .array(apiKeySchema, { error: 'expected a list of keys. Write each as "- name: ..." under apiKeys:' })
    .default([]),
  limits: limitsSchema.prefault({}),
  readiness: readinessSchema.prefault({}),
  /**
   * One entry per agent; names use letters, digits, `_`, `-`.
   * @default one bot `default`, selfSpeaker `Assistant`
   */
  bots: botsSchema.prefault(DEFAULT_BOTS),
  // Who may vouch for whose accounts when people link them (people-schema.ts documents its key).
  people: peopleSchema.prefault({}),
  /**
   * A Discord bot account that `serve` connects to the pool (docs/interfaces.md, Discord).
   * @default absent: no Discord connection
   */
  discord: discordSchema.optional(),
});

/** The configuration as the schema produces it, before relative paths are resolved. */
export type ParsedConfig = z.output<typeof configSchema>;
