/**
 * @module How an embedding provider's calls are retried: the config's retry budget on top of the shared
 * retry toolkit (src/runtime/retry.ts), retrying only what a ProviderError says is retryable.
 */
import { ProviderError } from '../../errors/memory-pool-error.js';
import { runWithRetries as runRetrying } from '../../runtime/retry.js';

export interface RetryPolicy {
  /** Retries after the first attempt (config `embedding.maxRetries`). */
  readonly maxRetries: number;
  /** First backoff; doubles each retry (default 500 ms). */
  readonly baseDelayMs: number;
  /** Ceiling for computed backoff (default 20 s). */
  readonly maxDelayMs: number;
  /** A Retry-After longer than this is not waited out: the error goes to the caller with `retryAfterMs`. */
  readonly maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: Omit<RetryPolicy, 'maxRetries'> = {
  baseDelayMs: 500,
  maxDelayMs: 20_000,
  maxRetryAfterMs: 60_000,
};

/**
 * Runs `attempt` until it succeeds, throws a non-retryable error, or retries run out. Waits the provider's
 * `retryAfterMs` when given, else backoff; stops at once when `signal` aborts.
 */
export function runWithRetries<T>(
  attempt: () => Promise<T>,
  policy: RetryPolicy,
  hooks: {
    signal?: AbortSignal | undefined;
    onRetry?: (error: ProviderError, retry: number, delayMs: number) => void;
  } = {},
): Promise<T> {
  return runRetrying(attempt, {
    maxRetries: policy.maxRetries,
    baseMs: policy.baseDelayMs,
    maxMs: policy.maxDelayMs,
    maxRetryAfterMs: policy.maxRetryAfterMs,
    classify: (error) =>
      error instanceof ProviderError && error.retryable
        ? { retry: true, retryAfterMs: error.retryAfterMs }
        : { retry: false },
    signal: hooks.signal,
    onRetry: (error, retry, delayMs) => hooks.onRetry?.(error as ProviderError, retry, delayMs),
  });
}
