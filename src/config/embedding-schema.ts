/**
 * @module `embedding:`: which model turns text into vectors. `openai` and `openrouter` are presets of the
 * OpenAI-compatible client that fill in its URL (and for OpenAI its model and size); no section means offline.
 */
import type { EmbeddingConfig } from './config-types.js';
import { httpUrl, integer, oneOf, section, secret, text } from './config-fields.js';

const PROVIDERS = ['openai-compatible', 'openai', 'openrouter', 'offline', 'distilled', 'hashing'] as const;
type Provider = (typeof PROVIDERS)[number];

/** What each preset fills in; `dimensions` only applies with the preset's own model. */
const PRESETS: Partial<Record<Provider, { baseUrl: string; model?: string; dimensions?: number }>> = {
  openai: { baseUrl: 'https://api.openai.com/v1', model: 'text-embedding-3-large', dimensions: 3072 },
  openrouter: { baseUrl: 'https://openrouter.ai/api/v1' },
};

const CLIENT_KEYS = [
  'baseUrl',
  'model',
  'apiKey',
  'dimensions',
  'maxInputTokens',
  'batchSize',
  'concurrency',
  'timeoutMs',
  'maxRetries',
] as const;

/** Keys each provider reads; any other key set in the file is reported rather than ignored. */
const KEYS_BY_PROVIDER: Record<Provider, readonly string[]> = {
  'openai-compatible': CLIENT_KEYS,
  openai: CLIENT_KEYS,
  openrouter: CLIENT_KEYS,
  offline: ['workers'],
  distilled: [],
  hashing: ['dimensions'],
};

// Applied in the transform, not with .default(), so a client option set under `offline` is still reported.
const CLIENT_DEFAULTS = { batchSize: 64, concurrency: 4, timeoutMs: 15_000, maxRetries: 5 } as const;

const KEY_HINT = 'Set embedding.apiKey, or the MEMORY_POOL_EMBEDDING_API_KEY';

export const embeddingSchema = section({
  /**
   * `openai-compatible`, `openai`, `openrouter`, `offline`, `distilled` or `hashing`. `offline` is USE-lite
   * (512-d, on ONNX Runtime in worker threads, TensorFlow.js where ONNX Runtime cannot load). `distilled` is
   * USE-lite distilled into a static token table shipped in `models/` (256-d, model
   * `distilled:use-lite-static-256-v1`): no workers, no window, microseconds per text, lower recall
   * (docs/recall.md); it takes no other key, and a collection made by one of the two cannot be searched with
   * the other. `scripts/distill-use-lite.mjs` rebuilds the table.
   * @default `offline` with no `embedding:` section; required in one
   */
  provider: oneOf(PROVIDERS, 'Pick the embedding provider; see docs/configuration.md.'),
  /**
   * API root; `/embeddings` is appended. Vectors are asked for as base64 float32 (`encoding_format:
   * "base64"`, a quarter of the JSON); a server that answers 400/422 to that, or sends lists of numbers
   * anyway, is asked for floats from then on (logged once).
   * @default openai: `https://api.openai.com/v1`; openrouter: `https://openrouter.ai/api/v1`; openai-compatible: required
   */
  baseUrl: httpUrl(
    'Set the API root, e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1.',
  ).optional(),
  /**
   * Model name.
   * @default openai: `text-embedding-3-large`; otherwise required
   */
  model: text('Set the embedding model name, e.g. text-embedding-3-large.').optional(),
  /**
   * Sent as a bearer token. Falls back to MEMORY_POOL_EMBEDDING_API_KEY, then (not for openrouter)
   * OPENAI_API_KEY.
   * @default none (required for openai, openrouter)
   */
  apiKey: secret(1, `${KEY_HINT} environment variable.`).optional(),
  /**
   * Vector size, sent to the API and checked on every vector.
   * @default openai with its default model: `3072`; hashing: `256`; otherwise none
   */
  dimensions: integer(1, 65_536, 'Set the vector size the model returns, e.g. 3072.').optional(),
  /**
   * The model's input window, in tokens counted with cl100k_base (OpenAI's encoding: exact for its models, an
   * estimate for others, so leave a margin). A longer text is embedded in windows that fit and the vectors
   * averaged, so nothing is cut off silently. Set it to your model's window (16-1000000); the offline model's
   * is fixed (128 of its own tokens).
   * @default OpenAI's `text-embedding-3-small`/`-large`/`ada-002` (also `openai/…`): `8191`; any other model: `512`
   */
  maxInputTokens: integer(16, 1_000_000, "Set the model's input window in tokens, e.g. 512.").optional(),
  /** Texts per request (OpenAI-compatible providers). */
  batchSize: integer(1, 2048, 'Set how many texts to send per request, e.g. 64.').optional(),
  /**
   * Requests in flight at once (OpenAI-compatible providers): a backlog (an import, a catch-up) is sent as
   * this many batches side by side instead of one round trip after another. Each request retries alone; after
   * a rate limit (429) the client holds every request until its Retry-After and sends one at a time, widening
   * back to this many after runs of successes. Recall queries have their own client. Lower it (1 sends one at
   * a time) for a local server that runs one request at a time anyway.
   */
  concurrency: integer(1, 64, 'Set how many requests to send at once, e.g. 4.').optional(),
  /** Per request. */
  timeoutMs: integer(100, 600_000, 'Set a timeout in milliseconds, e.g. 15000.').optional(),
  /** Retries on failures and rate limits. */
  maxRetries: integer(0, 20, 'Set how many times to retry, e.g. 5.').optional(),
  /**
   * offline only: worker threads running the model, each ~85 MB on ONNX Runtime (~165 MB where it falls back
   * to TensorFlow.js). Recall queries go ahead of chunk jobs on whichever worker frees first.
   * @default one per core, at most `4`
   */
  workers: integer(1, 64, 'Set how many offline model workers to run, e.g. 2.').optional(),
})
  .superRefine((section, ctx) => {
    const allowed = KEYS_BY_PROVIDER[section.provider];
    const providerKeys = new Set(Object.values(KEYS_BY_PROVIDER).flat()) as Set<keyof typeof section>;
    for (const key of providerKeys) {
      if (section[key] !== undefined && !allowed.includes(key)) {
        const keys = allowed.length === 0 ? 'no other keys' : `only ${allowed.join(', ')}`;
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `provider ${section.provider} takes ${keys}. Remove ${key}`,
        });
      }
    }
    const needs = (key: 'baseUrl' | 'model' | 'apiKey', fix: string) => {
      if (section[key] === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `is required for provider ${section.provider}. ${fix}`,
        });
      }
    };
    if (section.provider === 'openai-compatible') {
      needs('baseUrl', 'Set the API root, e.g. http://127.0.0.1:11434/v1');
      needs('model', 'Set the embedding model name');
    }
    if (section.provider === 'openrouter')
      needs('model', 'Set the model, e.g. openai/text-embedding-3-large');
    if (section.provider === 'openai') needs('apiKey', `${KEY_HINT} or OPENAI_API_KEY environment variable`);
    if (section.provider === 'openrouter') needs('apiKey', `${KEY_HINT} environment variable`);
  })
  .transform((section): EmbeddingConfig => {
    if (section.provider === 'offline') {
      return section.workers === undefined
        ? { provider: 'offline' }
        : { provider: 'offline', workers: section.workers };
    }
    if (section.provider === 'distilled') return { provider: 'distilled' };
    if (section.provider === 'hashing') return { provider: 'hashing', dimensions: section.dimensions ?? 256 };
    const preset = PRESETS[section.provider];
    const usesPresetModel = section.model === undefined || section.model === preset?.model;
    return {
      provider: 'openai-compatible',
      baseUrl: section.baseUrl ?? preset?.baseUrl ?? '',
      model: section.model ?? preset?.model ?? '',
      ...(section.apiKey === undefined ? {} : { apiKey: section.apiKey }),
      ...dimensionsOf(section.dimensions ?? (usesPresetModel ? preset?.dimensions : undefined)),
      maxInputTokens: section.maxInputTokens ?? defaultMaxInputTokens(section.model ?? preset?.model ?? ''),
      batchSize: section.batchSize ?? CLIENT_DEFAULTS.batchSize,
      concurrency: section.concurrency ?? CLIENT_DEFAULTS.concurrency,
      timeoutMs: section.timeoutMs ?? CLIENT_DEFAULTS.timeoutMs,
      maxRetries: section.maxRetries ?? CLIENT_DEFAULTS.maxRetries,
    };
  });

/** OpenAI's embedding models read 8191 tokens; other models' windows vary, 512 being the common small one. */
const OPENAI_EMBEDDING_MODEL = /^(openai\/)?text-embedding-(3-small|3-large|ada-002)$/;
function defaultMaxInputTokens(model: string): number {
  return OPENAI_EMBEDDING_MODEL.test(model) ? 8191 : 512;
}

function dimensionsOf(dimensions: number | undefined): { dimensions?: number } {
  return dimensions === undefined ? {} : { dimensions };
}
