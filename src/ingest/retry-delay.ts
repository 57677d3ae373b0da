/** @module How long a failed chunk write waits before its next attempt. */

const BASE_MS = 1_000;
const MAX_MS = 5 * 60_000;

/**
 * Exponential backoff with ±20% jitter, 1 s doubling up to 5 min. Errors a retry cannot fix by itself (a
 * collection that does not fit the embedder, a bad key) still retry, at the maximum delay, because the
 * operator may fix the config and nothing accepted may be dropped.
 */
export function computeRetryDelay(attempts: number, options: { retryable: boolean }): number {
  const base = options.retryable ? Math.min(BASE_MS * 2 ** attempts, MAX_MS) : MAX_MS;
  return Math.round(base * (0.8 + Math.random() * 0.4));
}
