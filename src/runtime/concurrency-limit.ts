/**
 * @module A bound on tasks running at once: at most `limit` run, the rest wait in the order they came. The
 * remote embedder sends its requests through one, so a backlog's batches go to the endpoint side by side
 * instead of one round trip after another; after a rate limit it narrows the bound and holds every start.
 */

export interface RunOptions {
  /** Wait at the front of the line (a retry goes before requests that have not been tried yet). */
  readonly ahead?: boolean;
  /** An abort takes the task out of the line and rejects with the signal's reason; a started task runs on. */
  readonly signal?: AbortSignal | undefined;
}

export class ConcurrencyLimit {
  /** The bound it was made with; `setLimit` moves the effective bound between 1 and this. */
  readonly #max: number;
  #limit: number;
  #running = 0;
  /** No task starts before this (epoch ms): a rate-limited endpoint's Retry-After, shared by every caller. */
  #holdUntil = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Tasks waiting for a slot, first come first served (`ahead` ones first). */
  readonly #waiting: Array<() => void> = [];

  constructor(limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`limit must be an integer >= 1, got ${limit}`);
    this.#max = limit;
    this.#limit = limit;
  }

  /** How many tasks hold a slot now. */
  get running(): number {
    return this.#running;
  }

  /** How many may run at once now. */
  get limit(): number {
    return this.#limit;
  }

  /** The bound it was made with. */
  get max(): number {
    return this.#max;
  }

  /** Narrows or widens the bound, kept between 1 and the bound it was made with. */
  setLimit(limit: number): void {
    this.#limit = Math.max(1, Math.min(this.#max, Math.floor(limit)));
    this.#pump();
  }

  /** Starts no task before `until` (epoch ms); an earlier time than one already set changes nothing. */
  holdUntil(until: number): void {
    if (until > this.#holdUntil) this.#holdUntil = until;
  }

  /** Runs `task` once a slot is free; resolves or rejects as it does, and frees the slot either way. */
  async run<T>(task: () => Promise<T>, options: RunOptions = {}): Promise<T> {
    const { signal } = options;
    signal?.throwIfAborted();
    // Waiters before it, or a hold, mean the line: a task arriving meanwhile cannot jump it.
    if (this.#running >= this.#limit || this.#waiting.length > 0 || Date.now() < this.#holdUntil) {
      await new Promise<void>((resolve, reject) => {
        // An aborted caller (a forget ending a batch) must not wait for a slot only to give it back.
        const leave = () => {
          const index = this.#waiting.indexOf(start);
          if (index >= 0) this.#waiting.splice(index, 1);
          reject(signal?.reason);
        };
        const start = () => {
          signal?.removeEventListener('abort', leave);
          resolve();
        };
        signal?.addEventListener('abort', leave, { once: true });
        if (options.ahead) this.#waiting.unshift(start);
        else this.#waiting.push(start);
        this.#pump();
      });
    } else this.#running += 1;
    try {
      return await task();
    } finally {
      this.#running -= 1;
      this.#pump();
    }
  }

  /** Starts waiters while slots are free and no hold is on; a hold still on wakes it again when it ends. */
  #pump(): void {
    while (this.#waiting.length > 0 && this.#running < this.#limit) {
      const wait = this.#holdUntil - Date.now();
      if (wait > 0) {
        this.#timer ??= setTimeout(() => {
          this.#timer = undefined;
          this.#pump();
        }, wait);
        return;
      }
      this.#running += 1;
      this.#waiting.shift()!();
    }
  }
}
