/** @module How long a failed chunk write waits before its next attempt. */
import { computeBackoffMs } from '../runtime/retry.js';

/** 1 s doubling up to 5 min: a store or embedder outage of any length is waited out without hammering it. */
const WRITE_BACKOFF = { baseMs: 1_000, maxMs: 5 * 60_000 };

/**
 * Exponential backoff with jitter. Errors a retry cannot fix by itself (a collection that does not fit the
 * embedder, a bad key) still retry, at the longest delay, because the operator may fix the config and
 * nothing accepted may be dropped.
 */
export function computeRetryDelay(attempts: number, options: { retryable: boolean }): number {
  return computeBackoffMs(options.retryable ? attempts : Number.POSITIVE_INFINITY, WRITE_BACKOFF);
}
