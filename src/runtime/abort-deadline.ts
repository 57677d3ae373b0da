/**
 * @module Waiting that an abort or a deadline cuts short, on the platform's AbortController and
 * AbortSignal.any (Node 20): for work that cannot itself be aborted (a shared provider call, a store client
 * without a signal), the caller stops waiting while the work finishes on its own.
 */

/** Settles as `work` does, or rejects with `signal`'s reason as soon as it aborts (the work is not stopped). */
export function raceAbort<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

export interface DeadlineOptions {
  /** The caller's own signal (a client that went away); the work sees it and the deadline combined. */
  readonly signal?: AbortSignal | undefined;
  /** What to throw once the deadline has passed, given what the work (or the deadline) failed with. */
  readonly onTimeout: (error: unknown) => unknown;
}

/**
 * Runs `work` with a signal that aborts after `ms` (or when `options.signal` does), and stops waiting for it
 * at the deadline even if the work ignores its signal. The timer is a plain one, not AbortSignal.timeout's:
 * that one is unref'd, so a command waiting on nothing else would exit before the deadline could answer.
 */
export async function withDeadline<T>(
  ms: number,
  options: DeadlineOptions,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const deadline = new AbortController();
  const timer = setTimeout(
    () => deadline.abort(new DOMException('The deadline passed.', 'TimeoutError')),
    ms,
  );
  const signal = options.signal ? AbortSignal.any([options.signal, deadline.signal]) : deadline.signal;
  try {
    return await raceAbort(work(signal), deadline.signal);
  } catch (error) {
    if (deadline.signal.aborted) throw options.onTimeout(error);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
