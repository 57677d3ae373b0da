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
    /**
     * The attempts go through a RequestGate that holds every request after a 429: a rate-limited retry goes
     * straight back into the gate's line (first in it) and waits there, instead of sleeping on its own and
     * coming back after the hold, behind requests that have not been tried yet.
     */
    rateLimitsHeldByGate?: boolean;
  } = {},
): Promise<T> {
  // A 429 without Retry-After keeps its own growing backoff: the gate's hold for it is a fixed guess.
  const heldByGate = (error: ProviderError) =>
    hooks.rateLimitsHeldByGate === true &&
    error.code === 'embedding_rate_limited' &&
    error.retryAfterMs !== undefined &&
    error.retryAfterMs <= policy.maxRetryAfterMs;
  return runRetrying(attempt, {
    maxRetries: policy.maxRetries,
    baseMs: policy.baseDelayMs,
    maxMs: policy.maxDelayMs,
    maxRetryAfterMs: policy.maxRetryAfterMs,
    classify: (error) => {
      if (!(error instanceof ProviderError) || !error.retryable) return { retry: false };
      return { retry: true, retryAfterMs: heldByGate(error) ? 0 : error.retryAfterMs };
    },
    signal: hooks.signal,
    // A held retry waits the Retry-After in the gate: that is the wait to report.
    onRetry: (error, retry, delayMs) => {
      const failure = error as ProviderError;
      hooks.onRetry?.(failure, retry, heldByGate(failure) ? (failure.retryAfterMs ?? delayMs) : delayMs);
    },
  });
}
