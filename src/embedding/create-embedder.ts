/**
 * @module Builds the configured embedder. Query caching is separate: wrap the result in CachedEmbedder where
 * queries are embedded, so chunk texts from saves (rarely repeated) do not crowd out queries.
 */
import type { EmbeddingConfig } from '../config/config-types.js';
import type { Logger } from '../logging/logger.js';
import { CachedEmbedder } from './cached-embedder.js';
import { DistilledEmbedder } from './distilled/distilled-embedder.js';
import type { Embedder } from './embedder.js';
import { HashingEmbedder } from './hashing/hashing-embedder.js';
import { OfflineEmbedder } from './offline/offline-embedder.js';
import { OpenAiCompatibleEmbedder } from './openai-compatible/openai-compatible-embedder.js';
import type { FetchLike } from './openai-compatible/post-embeddings.js';
import { WindowedEmbedder } from './windowed-embedder.js';

export interface EmbedderDeps {
  readonly logger?: Logger;
  /** Replaces global fetch for the OpenAI-compatible provider (tests, proxies). */
  readonly fetch?: FetchLike;
  /** Where the user sets the API key, named in 401/403 errors, e.g. "MEMORY_POOL_EMBEDDING_API_KEY". */
  readonly apiKeyHint?: string;
}

/**
 * Returns the embedder `config` selects, reading whole texts however long (WindowedEmbedder); throws
 * ConfigError for settings it cannot use.
 */
export function createEmbedder(config: EmbeddingConfig, deps: EmbedderDeps = {}): Embedder {
  return new WindowedEmbedder(createModelEmbedder(config, deps));
}

/**
 * The embedder for recall queries: like createEmbedder, but a remote provider gets one quick retry at most
 * (recall has a 3 s deadline; chunk writes keep the full policy), and repeated queries are cached.
 */
export function createQueryEmbedder(config: EmbeddingConfig, deps: EmbedderDeps = {}): Embedder {
  const quick =
    config.provider === 'openai-compatible'
      ? { ...config, maxRetries: 1, timeoutMs: Math.min(config.timeoutMs, 2_500) }
      : config;
  return new CachedEmbedder(createEmbedder(quick, deps));
}

/** The provider itself, which reads at most its input window of each text. */
function createModelEmbedder(config: EmbeddingConfig, deps: EmbedderDeps): Embedder {
  const logger = deps.logger?.child({ component: 'embedding' });
  switch (config.provider) {
    case 'openai-compatible':
      return new OpenAiCompatibleEmbedder(config, { logger, fetch: deps.fetch, apiKeyHint: deps.apiKeyHint });
    case 'offline':
      return new OfflineEmbedder({
        logger,
        ...(config.workers === undefined ? {} : { workers: config.workers }),
      });
    case 'distilled':
      return new DistilledEmbedder();
    case 'hashing':
      return new HashingEmbedder({ dimensions: config.dimensions });
  }
}
