/**
 * @module Embedder for any server speaking OpenAI's `POST /embeddings` (OpenAI, OpenRouter, Ollama, LM
 * Studio, llama.cpp, vLLM, TEI): batches inputs, sends a bounded number of batches at once, retries what can
 * be retried, and checks vector lengths.
 */
import type { EmbeddingConfig } from '../../config/config-types.js';
import { ConfigError, ProviderError } from '../../errors/memory-pool-error.js';
import type { Logger } from '../../logging/logger.js';
import type { EmbedOptions, Embedder, InputWindow } from '../embedder.js';
import { createCl100kWindowCounter } from './cl100k-token-counter.js';
import {
  type EmbeddingEncoding,
  type EmbeddingsEndpoint,
  type FetchLike,
  postEmbeddings,
} from './post-embeddings.js';
import { RequestGate } from './request-gate.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy, runWithRetries } from './retry-policy.js';

export type OpenAiCompatibleConfig = Extract<EmbeddingConfig, { provider: 'openai-compatible' }>;

export interface OpenAiCompatibleEmbedderOptions {
  readonly fetch?: FetchLike;
  readonly logger?: Logger;
  /** Where users set the key, named in 401/403 errors (default "embedding.apiKey"). */
  readonly apiKeyHint?: string;
  /** Backoff timing; tests shorten it. `maxRetries` always comes from config. */
  readonly retry?: Partial<Omit<RetryPolicy, 'maxRetries'>>;
}

/** Embeds through an OpenAI-compatible HTTP API. */
export class OpenAiCompatibleEmbedder implements Embedder {
  readonly model: string;
  /** `embedding.maxInputTokens`, counted with cl100k_base (exact for OpenAI's models, an estimate for others). */
  readonly inputWindow: InputWindow;
  readonly #endpoint: EmbeddingsEndpoint;
  readonly #batchSize: number;
  /** `embedding.concurrency` requests in flight at once across every call, fewer and held after a 429. */
  readonly #requests: RequestGate;
  readonly #policy: RetryPolicy;
  readonly #logger: Logger | undefined;
  #dimensions: number | undefined;
  /** Asked of the endpoint: base64 until it refuses it or answers floats anyway, then floats for good. */
  #encoding: EmbeddingEncoding = 'base64';

  constructor(config: OpenAiCompatibleConfig, options: OpenAiCompatibleEmbedderOptions = {}) {
    checkSettings(config);
    const baseUrl = normalizeBaseUrl(config.baseUrl);
    this.model = `openai-compatible:${config.model}`;
    this.#dimensions = config.dimensions;
    this.inputWindow = {
      maxTokens: config.maxInputTokens,
      countTokens: createCl100kWindowCounter(config.maxInputTokens),
    };
    this.#batchSize = config.batchSize;
    this.#requests = new RequestGate(config.concurrency);
    this.#policy = { ...DEFAULT_RETRY_POLICY, ...options.retry, maxRetries: config.maxRetries };
    this.#logger = options.logger;
    this.#endpoint = {
      url: `${baseUrl}/embeddings`,
      baseUrl,
      model: config.model,
      apiKey: config.apiKey || undefined,
      apiKeyHint: options.apiKeyHint ?? 'embedding.apiKey',
      dimensions: config.dimensions,
      timeoutMs: config.timeoutMs,
      fetch: options.fetch ?? fetch,
    };
  }

  get dimensions(): number | undefined {
    return this.#dimensions;
  }

  async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    const batches: string[][] = [];
    for (let start = 0; start < texts.length; start += this.#batchSize) {
      batches.push(texts.slice(start, start + this.#batchSize));
    }
    if (batches.length <= 1) {
      return batches[0] === undefined ? [] : this.#embedBatch(batches[0], this.#policy, options.signal);
    }
    // Side by side, at most `embedding.concurrency` at once: one after another, a backlog's batches each waited
    // a full round trip. Each batch retries alone; once one has failed for good the others stop (the caller
    // gets that first failure and, in the chunk writer, keeps every chunk of the call due for a later try).
    const failed = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, failed.signal]) : failed.signal;
    const settled = batches.map((batch) => this.#embedBatch(batch, this.#policy, signal));
    try {
      return (await Promise.all(settled)).flat();
    } catch (error) {
      failed.abort(error);
      await Promise.allSettled(settled);
      throw options.signal?.aborted ? options.signal.reason : error;
    }
  }

  /** One single-attempt request for one short input: proves the URL, key and model work, and learns the size. */
  async probe(): Promise<void> {
    await this.#embedBatch(['ping'], { ...this.#policy, maxRetries: 0 }, undefined);
  }

  async #embedBatch(batch: string[], policy: RetryPolicy, signal: AbortSignal | undefined) {
    let attempts = 0;
    // Each attempt, retries too, goes through the gate: a 429 holds every request to this endpoint.
    const post = async () => {
      const retry = attempts++ > 0;
      const send = () => postEmbeddings(this.#endpoint, batch, signal, this.#encoding);
      const answer = await this.#requests.send(send, { retry, signal });
      if (answer.encoding !== this.#encoding) {
        this.#encoding = answer.encoding;
        this.#logger?.info(
          { baseUrl: this.#endpoint.baseUrl, encoding: answer.encoding },
          `embedding endpoint answers in ${answer.encoding === 'float' ? 'lists of numbers' : 'base64'}; asking for that from now on`,
        );
      }
      return answer.vectors;
    };
    const vectors = await runWithRetries(post, policy, {
      signal,
      rateLimitsHeldByGate: true,
      onRetry: (error, retry, delayMs) =>
        this.#logger?.warn(
          { code: error.code, retry, of: policy.maxRetries, delayMs, baseUrl: this.#endpoint.baseUrl },
          `embedding request failed, retrying: ${error.message}`,
        ),
    });
    this.#checkDimensions(vectors);
    return vectors;
  }

  #checkDimensions(vectors: Float32Array[]): void {
    const first = vectors[0]?.length;
    if (first === undefined) return;
    const odd = vectors.find((vector) => vector.length !== first);
    if (odd) {
      throw new ProviderError(
        'embedding_dimension_mismatch',
        `embedding provider at ${this.#endpoint.baseUrl} returned vectors of different lengths ` +
          `(${first} and ${odd.length}) in one response`,
        { retryable: false },
      );
    }
    const expected = this.#dimensions;
    if (expected !== undefined && first !== expected) {
      const why =
        this.#endpoint.dimensions !== undefined ? 'embedding.dimensions is' : 'earlier calls returned';
      throw new ProviderError(
        'embedding_dimension_mismatch',
        `model "${this.#endpoint.model}" at ${this.#endpoint.baseUrl} returned ${first}-d vectors but ${why} ` +
          `${expected}; vectors of different lengths cannot share a collection`,
        { retryable: false },
      );
    }
    this.#dimensions = first;
  }
}

/** Accepts the API root with or without a trailing slash, or the full `/embeddings` URL. */
function normalizeBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch (error) {
    throw new ConfigError(
      'embedding.baseUrl',
      `"${raw}" is not a URL (e.g. https://api.openai.com/v1)`,
      error,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError('embedding.baseUrl', `must start with http:// or https://, got "${raw}"`);
  }
  return url.href.replace(/\/+$/, '').replace(/\/embeddings$/, '');
}

function checkSettings(config: OpenAiCompatibleConfig): void {
  if (!config.model.trim())
    throw new ConfigError('embedding.model', 'is empty; name the embedding model to use');
  const integers: Array<[string, number | undefined, number]> = [
    ['embedding.batchSize', config.batchSize, 1],
    ['embedding.concurrency', config.concurrency, 1],
    ['embedding.timeoutMs', config.timeoutMs, 1],
    ['embedding.maxRetries', config.maxRetries, 0],
    ['embedding.dimensions', config.dimensions ?? 1, 1],
    ['embedding.maxInputTokens', config.maxInputTokens, 1],
  ];
  for (const [key, value, min] of integers) {
    if (!Number.isInteger(value) || (value as number) < min) {
      throw new ConfigError(key, `must be an integer >= ${min}, got ${value}`);
    }
  }
}
