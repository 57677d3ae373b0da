/**
 * @module When and how long to wait before retrying a provider call: exponential backoff with jitter, the
 * provider's own Retry-After when it sends one, and a cap past which waiting is the caller's decision.
 */
import { ProviderError } from '../../errors/memory-pool-error.js';

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
 * Delay before retry number `retry` (0-based): "equal jitter", half fixed and half random, so many clients
 * hitting the same limit spread out without any of them retrying immediately.
 */
export function computeBackoffMs(
  retry: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** Parses Retry-After (RFC 9110 §10.2.3: delay-seconds or an HTTP date) into milliseconds; undefined if absent/bad. */
export function parseRetryAfterMs(header: string | null, now: number = Date.now()): number | undefined {
  if (header === null) return undefined;
  const trimmed = header.trim();
  if (trimmed === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/**
 * Runs `attempt` until it succeeds, throws a non-retryable error, or retries run out. Waits the provider's
 * `retryAfterMs` when given, else backoff; stops at once when `signal` aborts.
 */
export async function runWithRetries<T>(
  attempt: () => Promise<T>,
  policy: RetryPolicy,
  hooks: {
    signal?: AbortSignal;
    onRetry?: (error: ProviderError, retry: number, delayMs: number) => void;
  } = {},
): Promise<T> {
  for (let retry = 0; ; retry++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof ProviderError) || !error.retryable || retry >= policy.maxRetries) throw error;
      const retryAfter = error.retryAfterMs;
      if (retryAfter !== undefined && retryAfter > policy.maxRetryAfterMs) throw error;
      const delayMs = retryAfter ?? computeBackoffMs(retry, policy);
      hooks.onRetry?.(error, retry + 1, delayMs);
      await sleep(delayMs, hooks.signal);
    }
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
