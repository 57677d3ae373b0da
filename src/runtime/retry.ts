/**
 * @module The one retry toolkit: exponential backoff with jitter, `Retry-After` parsing, and a sleep that an
 * AbortSignal ends at once. The journal's writer, the embedding provider and the client all retry with it.
 */
import { setTimeout as delay } from 'node:timers/promises';

export interface BackoffSettings {
  /** The first retry's ceiling; doubles every retry. */
  readonly baseMs: number;
  /** The ceiling no retry waits past. */
  readonly maxMs: number;
}

/**
 * Delay before retry number `retry` (0-based): "equal jitter", half of the ceiling fixed and half random,
 * so many clients hitting the same limit spread out without any of them retrying at once.
 */
export function computeBackoffMs(
  retry: number,
  settings: BackoffSettings,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(settings.maxMs, settings.baseMs * 2 ** retry);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** Parses Retry-After (RFC 9110 §10.2.3: delay-seconds or an HTTP date) into milliseconds; undefined if absent/bad. */
export function parseRetryAfterMs(header: string | null, now: number = Date.now()): number | undefined {
  if (header === null) return undefined;
  const trimmed = header.trim();
  if (trimmed === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  // An HTTP date names a day and a month; without letters it is a bad delay (`-1`), not a year to parse.
  if (!/[a-z]/i.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** Waits `ms`; rejects with the signal's reason as soon as it aborts (at once if it already has). */
export async function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  try {
    await delay(ms, undefined, signal === undefined ? undefined : { signal });
  } catch (error) {
    // timers/promises rejects with its own AbortError; callers expect the reason they aborted with.
    if (signal?.aborted) throw signal.reason;
    throw error;
  }
}

/** What a failed attempt means for the next one. */
export interface RetryVerdict {
  readonly retry: boolean;
  /** The other side said how long to wait (Retry-After). */
  readonly retryAfterMs?: number | undefined;
}

export interface RetrySettings extends BackoffSettings {
  /** Retries after the first attempt. */
  readonly maxRetries: number;
  /** A Retry-After longer than this is not waited out: the error goes to the caller (but see clampRetryAfter). */
  readonly maxRetryAfterMs: number;
  /**
   * Wait a longer Retry-After for only maxRetryAfterMs and retry, instead of passing the error on (default
   * false): for a caller that would rather try again soon than give up, like the client.
   */
  readonly clampRetryAfter?: boolean;
  /** Whether an error is worth another attempt. */
  classify(error: unknown): RetryVerdict;
  readonly signal?: AbortSignal | undefined;
  onRetry?(error: unknown, retry: number, delayMs: number): void;
}

/**
 * Runs `attempt` until it succeeds, fails in a way `classify` will not retry, or retries run out. Waits the
 * other side's Retry-After when given (up to maxRetryAfterMs), else backoff; stops at once when `signal` aborts.
 */
export async function runWithRetries<T>(attempt: () => Promise<T>, settings: RetrySettings): Promise<T> {
  for (let retry = 0; ; retry++) {
    try {
      return await attempt();
    } catch (error) {
      const verdict = settings.classify(error);
      if (!verdict.retry || retry >= settings.maxRetries) throw error;
      let told = verdict.retryAfterMs;
      if (told !== undefined && told > settings.maxRetryAfterMs) {
        if (!settings.clampRetryAfter) throw error;
        told = settings.maxRetryAfterMs;
      }
      const delayMs = told ?? computeBackoffMs(retry, settings);
      settings.onRetry?.(error, retry + 1, delayMs);
      await sleep(delayMs, settings.signal);
    }
  }
}
