/**
 * @module One embedder client's shared gate to its endpoint: at most `embedding.concurrency` requests at once,
 * and after a 429 every send and retry waits out the Retry-After (plus a little jitter) and the bound drops to
 * one, widening again one step per run of successes (additive increase, multiplicative decrease).
 */
import { ProviderError } from '../../errors/memory-pool-error.js';
import { ConcurrencyLimit } from '../../runtime/concurrency-limit.js';

/** Held after a 429 without a usable Retry-After. */
const DEFAULT_HOLD_MS = 1_000;
/** The jitter on a hold: a tenth of it, at least 20 ms, at most 1 s, so clients behind one limit spread out. */
const JITTER_SHARE = 0.1;

export class RequestGate {
  readonly #slots: ConcurrencyLimit;
  readonly #random: () => number;
  /** Successes since the last 429 or widening. */
  #streak = 0;

  constructor(concurrency: number, random: () => number = Math.random) {
    this.#slots = new ConcurrencyLimit(concurrency);
    this.#random = random;
  }

  /** How many requests may be in flight now (lower than `embedding.concurrency` after a 429). */
  get limit(): number {
    return this.#slots.limit;
  }

  /**
   * Sends `post` once a slot is free and no rate limit holds the endpoint. A retry waits at the front of the
   * line, so a request that already lost a round is not the one to lose the next too.
   */
  send<T>(post: () => Promise<T>, options: { retry: boolean; signal?: AbortSignal | undefined }): Promise<T> {
    return this.#slots.run(
      async () => {
        options.signal?.throwIfAborted();
        try {
          const answer = await post();
          this.#succeeded();
          return answer;
        } catch (error) {
          if (error instanceof ProviderError && error.code === 'embedding_rate_limited')
            this.#limited(error.retryAfterMs);
          throw error;
        }
      },
      { ahead: options.retry, signal: options.signal },
    );
  }

  #succeeded(): void {
    this.#streak += 1;
    // Twice the bound in successes without a 429 earns one more slot: slow enough that an endpoint allowing
    // one request at a time is not hit by two again at once after every success.
    if (this.#slots.limit < this.#slots.max && this.#streak >= 2 * this.#slots.limit) {
      this.#streak = 0;
      this.#slots.setLimit(this.#slots.limit + 1);
    }
  }

  #limited(retryAfterMs: number | undefined): void {
    this.#streak = 0;
    const hold = retryAfterMs ?? DEFAULT_HOLD_MS;
    const jitter = Math.round(this.#random() * Math.min(1_000, Math.max(20, hold * JITTER_SHARE)));
    this.#slots.holdUntil(Date.now() + hold + jitter);
    this.#slots.setLimit(1);
  }
}
