/**
 * @module The checks behind `GET /ready`. Each is bounded by `readiness.timeoutMs`, so a hung embedder answers
 * "not ready" in seconds rather than after its whole request timeout, and the embedder's answer is reused
 * for `readiness.embedderCacheMs`, so a load balancer polling /ready costs no embedding calls.
 */
import { JournalError } from '../errors/memory-pool-error.js';
import { withDeadline } from '../runtime/abort-deadline.js';
import type { ReadinessCheck } from '../wire/service-status.js';

/** Resolves when the dependency is usable; throws (any error) when it is not. */
export type Probe = () => Promise<void> | void;

/** Runs `probe`, answering not-ready when it throws or has not answered within `timeoutMs`. */
export async function runProbe(probe: Probe, timeoutMs: number): Promise<ReadinessCheck> {
  const timedOut: ReadinessCheck = {
    ok: false,
    error: `no answer within ${timeoutMs} ms (readiness.timeoutMs)`,
  };
  try {
    await withDeadline(timeoutMs, { onTimeout: () => timedOut }, async () => {
      await probe();
    });
    return { ok: true };
  } catch (error) {
    if (error === timedOut) return timedOut;
    // A journal error's detail names its server: /ready shows it to an admin key only (showReadiness).
    const detail = error instanceof JournalError ? error.detail : undefined;
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, error: detail === undefined ? message : `${message} (${detail})` };
  }
}

/**
 * Wraps `probe` so its outcome (a timeout included) is reused for `ttlMs`. A probe still running when the
 * cache expires is waited on again rather than started twice, so a hung provider sees one call at a time.
 */
export function cacheProbe(
  probe: Probe,
  options: { ttlMs: number; timeoutMs: number; now?: () => number },
): () => Promise<ReadinessCheck> {
  const now = options.now ?? Date.now;
  let cached: { check: ReadinessCheck; at: number } | undefined;
  let inFlight: Promise<void> | undefined;
  return async () => {
    if (cached !== undefined && now() - cached.at < options.ttlMs) return cached.check;
    if (inFlight === undefined) {
      // Started at once (an async wrapper turns a synchronous throw into a rejection).
      const running: Promise<void> = (async () => probe())().finally(() => {
        if (inFlight === running) inFlight = undefined;
      });
      // Awaited only through runProbe below; a rejection is its answer, not an unhandled error.
      running.catch(() => {});
      inFlight = running;
    }
    const current = inFlight;
    const check = await runProbe(() => current, options.timeoutMs);
    cached = { check, at: now() };
    return check;
  };
}

/** `read`'s answer, or undefined when it throws or has not answered within `timeoutMs`. */
export async function runBounded<T>(read: () => Promise<T>, timeoutMs: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), timeoutMs);
    timer.unref();
  });
  try {
    return await Promise.race([read().catch(() => undefined), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
